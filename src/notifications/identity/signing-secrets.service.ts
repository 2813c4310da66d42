import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { LookupCache } from '../../common/cache/lookup-cache';
import { EndUserVerifier, type SigningSecretSet } from '../../auth/end-user-verifier.service';
import { Clock } from '../../common/clock/clock';
import { SecretBox } from '../../common/crypto/secret-box';
import { ApiError } from '../../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { ChangeNotifications } from '../../infra/database/change-notifications.service';
import { Database } from '../../infra/database/database.service';
import type { ProjectRef } from '../../projects/project-ref';
import { RotatedSigningSecretDto, SigningSecretDto } from './dto/signing-secret.dto';
import { generateSigningSecret, previousValidUntil } from './signing-secret-format';
import { SealedValues } from '../../infra/encryption/sealed-values.service';
import { findSealedSecrets, insertFirstSecret, resealSecrets, rotateSecret, sampleSealedSecret } from './signing-secrets.queries';

const NO_SECRETS: SigningSecretSet = { current: null, previous: null };
/** The change kind a signing secret's creation or rotation is announced under (id: the project). */
const SECRET_CHANGE = 'signing-secret';

/**
 * The notification signing secret (spec: Notification signing secret, Notification identity
 * verification) and the reader the end-user verifier checks `user_hash` with.
 *
 * Choices the spec leaves open:
 * - Format: `svc_ntf_` and 40 base62 characters. Stored sealed (AES-256-GCM with ENCRYPTION_KEY),
 *   never hashed: the service computes HMACs with it. Registered with SealedValues, so
 *   `encryption:reseal` moves it to a new key; one the key cannot open makes a user_hash check
 *   answer 503 SEALED_VALUE_UNREADABLE. Never stored in clear anywhere, so the create
 *   and rotate calls take no Idempotency-Key (a replay would have to keep the secret); a create
 *   whose answer was lost answers 409 on retry, and a rotation gets a fresh one.
 * - Rotating a project that has no secret answers 404 NOT_FOUND (create it first): a rotation
 *   promises the old secret's grace, which needs an old secret.
 * - One previous secret is kept: rotating again within 24 hours ends the grace of the secret before
 *   (only the latest replaced one keeps verifying), as with Stripe's and Svix's rolling secrets.
 * - The reader caches each project's opened secrets in memory for 5 s, so the bell's poll path does
 *   not read the database per request. Create and rotate announce the change in their transaction
 *   (NOTIFY, through the process's one change listener, as API keys do), so every process drops
 *   its entry at commit: a hash made with a brand-new secret verifies at once on every server, and
 *   a rotation's new secret too. On the embedded database (one process) the entry is dropped after
 *   commit in process.
 */
@Injectable()
export class SigningSecretsService implements OnModuleInit {
  // 5 s per project; a read that raced with a create or rotate of the same project stores nothing.
  private readonly cache = new LookupCache<SigningSecretSet>({ storing: () => this.changes.isListening });
  private readonly box: SecretBox | null;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly verifier: EndUserVerifier,
    private readonly changes: ChangeNotifications,
    sealedValues: SealedValues,
  ) {
    this.box = config.encryptionKey ? new SecretBox(config.encryptionKey) : null;
    sealedValues.register({ name: 'notification_signing_secrets', sample: sampleSealedSecret, resealAll: resealSecrets });
    changes.subscribe({
      onChange: { [SECRET_CHANGE]: (projectId) => this.cache.invalidate(projectId) },
      onGap: () => this.cache.clear(),
    });
  }

  onModuleInit(): void {
    this.verifier.useSigningSecrets((projectId) => this.readSecrets(projectId));
  }

  async createSecret(project: ProjectRef): Promise<SigningSecretDto> {
    const secret = generateSigningSecret();
    const now = this.clock.now();
    await this.db.transaction(async (em) => {
      if (!(await insertFirstSecret(em, project.id, this.sealer().seal(secret), now))) {
        throw new ApiError('SIGNING_SECRET_ALREADY_SHOWN', 'This project already has a notification signing secret; it was shown once.', {
          remediation:
            'Rotate it with POST /v1/notifications/signing-secret/rotate to get a new one (the old one keeps working for 24 hours).',
        });
      }
      await this.changes.announce(em, SECRET_CHANGE, project.id);
    });
    return { signing_secret: secret, created_at: now.toISOString(), shown_once: true };
  }

  async rotateSecret(project: ProjectRef): Promise<RotatedSigningSecretDto> {
    const secret = generateSigningSecret();
    const now = this.clock.now();
    const validUntil = previousValidUntil(now);
    await this.db.transaction(async (em) => {
      if (!(await rotateSecret(em, project.id, this.sealer().seal(secret), now, validUntil))) {
        throw new ApiError('NOT_FOUND', 'This project has no notification signing secret to rotate.', {
          remediation: 'Create one with POST /v1/notifications/signing-secret.',
        });
      }
      await this.changes.announce(em, SECRET_CHANGE, project.id);
    });
    return { signing_secret: secret, created_at: now.toISOString(), shown_once: true, previous_valid_until: validUntil.toISOString() };
  }

  /** The project's secrets, opened; from memory when read in the last 5 s. The verifier checks the grace period. */
  async readSecrets(projectId: string): Promise<SigningSecretSet> {
    const secrets = await this.cache.lookup(projectId, this.now, (id) => {
      this.changes.start();
      return this.loadSecrets(id);
    });
    return secrets ?? NO_SECRETS;
  }

  private readonly now = (): number => this.clock.now().getTime();

  private async loadSecrets(projectId: string): Promise<SigningSecretSet> {
    const row = await findSealedSecrets(this.db.manager, projectId);
    if (!row) return NO_SECRETS;
    return {
      current: this.sealer().open(row.secret_ciphertext),
      previous:
        row.previous_ciphertext && row.previous_valid_until
          ? { secret: this.sealer().open(row.previous_ciphertext), validUntil: row.previous_valid_until }
          : null,
    };
  }

  private sealer(): SecretBox {
    // bootstrap.ts always provides a key (generated into DATA_DIR when unset).
    if (!this.box) throw new Error('ENCRYPTION_KEY is not configured');
    return this.box;
  }
}
