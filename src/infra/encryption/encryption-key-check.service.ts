import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { SecretBox } from '../../common/crypto/secret-box';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../database/database.service';
import { type RecordedFingerprint, findFingerprintForShare, recordFirstFingerprint } from './encryption-keys.queries';
import { keyFingerprint, shortFingerprint } from './key-fingerprint';
import { SealedValues } from './sealed-values.service';

/** Whether this process checks its key at start (the CLI does only for commands that open sealed values). */
export const ENCRYPTION_KEY_CHECK_OPTIONS = Symbol('ENCRYPTION_KEY_CHECK_OPTIONS');

export interface EncryptionKeyCheckOptions {
  readonly atStart: boolean;
}

/** A start refused because of ENCRYPTION_KEY: one line for the operator (bootstrap.ts failStart). */
export class EncryptionKeyRefused extends Error {
  override readonly name = 'EncryptionKeyRefused';
  readonly setting = 'ENCRYPTION_KEY';
}

const RESEAL_HINT = 'ENCRYPTION_KEY=<new key> ENCRYPTION_KEY_PREVIOUS=<key used before> npm run cli -- encryption:reseal';

/**
 * The start-up check of ENCRYPTION_KEY (API server, worker, and CLI commands that open sealed
 * values), run at module init, before any job worker starts or any request is served:
 *
 * - The first start with a key records its fingerprint (key-fingerprint.ts). A database that
 *   already holds sealed values from before fingerprints existed must open under the key first (one
 *   value of each registered set is tried), so a wrong key is never recorded as the right one.
 * - Every later start compares its key's fingerprint with the recorded one and refuses a different
 *   key with one line: restore the key, or re-seal with `encryption:reseal`. Without the check a
 *   wrong key starts fine and fails later on every sealed value (503s, failing deliveries).
 * - Two processes starting at once on an empty database: the primary key lets one record; the
 *   other reads that fingerprint after the first commits and starts, or refuses, accordingly.
 */
@Injectable()
export class EncryptionKeyCheck implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ENCRYPTION_KEY_CHECK_OPTIONS) private readonly options: EncryptionKeyCheckOptions,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sealedValues: SealedValues,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.options.atStart) await this.verify();
  }

  /** Records the key's fingerprint on the first start; throws EncryptionKeyRefused for another key. */
  async verify(): Promise<void> {
    const key = this.config.encryptionKey;
    if (!key) {
      throw new EncryptionKeyRefused('ENCRYPTION_KEY is not set: this command opens stored secrets; set the key they were sealed with.');
    }
    const fingerprint = keyFingerprint(key);
    const recorded = await this.db.transaction(async (em) => {
      const found = await findFingerprintForShare(em);
      if (found) return found;
      await this.assertOpensStoredValues(em, new SecretBox(key));
      await recordFirstFingerprint(em, fingerprint, this.clock.now());
      return (await findFingerprintForShare(em)) as RecordedFingerprint;
    });
    if (recorded.fingerprint !== fingerprint) throw new EncryptionKeyRefused(mismatch(fingerprint, recorded));
  }

  private async assertOpensStoredValues(em: EntityManager, box: SecretBox): Promise<void> {
    const unreadable: string[] = [];
    for (const set of this.sealedValues.all()) {
      const sample = await set.sample(em);
      if (sample !== null && !box.opens(sample)) unreadable.push(set.name);
    }
    if (unreadable.length === 0) return;
    throw new EncryptionKeyRefused(
      `ENCRYPTION_KEY does not open the secrets already stored in this database (${unreadable.join(', ')}): it is not the key they were sealed with. ` +
        `Start with that key, or re-seal them under this one: ${RESEAL_HINT}.`,
    );
  }
}

function mismatch(fingerprint: string, recorded: RecordedFingerprint): string {
  return (
    `ENCRYPTION_KEY is not the key this database's secrets are sealed with (its fingerprint ${shortFingerprint(fingerprint)}…, ` +
    `the database's ${shortFingerprint(recorded.fingerprint)}…, recorded ${recorded.recorded_at.toISOString()}). ` +
    `Start with the ENCRYPTION_KEY used before, or re-seal the stored secrets under this one: ${RESEAL_HINT}.`
  );
}
