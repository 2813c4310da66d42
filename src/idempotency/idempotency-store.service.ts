import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { SealedValueUnreadable, SecretBox } from '../common/crypto/secret-box';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { WireAnswer } from '../common/http/request-context';
import { Database } from '../infra/database/database.service';
import { ErasureRegistry } from '../infra/erasure/erasure-registry.service';
import { SealedValues } from '../infra/encryption/sealed-values.service';
import {
  deleteAnswersNamingPerson,
  findUnexpiredRecord,
  purgeExpiredAnswers,
  resealAnswers,
  sampleSealedAnswer,
  upsertRecord,
} from './idempotency.queries';

export interface StoredAnswer {
  requestHash: string;
  answer: WireAnswer;
}

interface NewRecord extends StoredAnswer {
  scope: string;
  key: string;
  /** The project the request acted on; null for account-wide requests. */
  projectId: string | null;
  createdAt: Date;
  expiresAt: Date;
  /** The answer shows a secret: its body is stored sealed with ENCRYPTION_KEY. */
  sealed: boolean;
}

// Any fixed number: the first half of the two-part advisory lock key, so idempotency claims never
// share a lock with other advisory locks (single-bigint locks live in a separate key space).
export const IDEMPOTENCY_LOCK_SPACE = 0x1de4;

/**
 * Idempotency records (see IdempotentCall for the protocol). Rows are only ever written inside the
 * effect's transaction, as its last statement; a request in progress holds a transaction-scoped
 * advisory lock instead of a row, which PostgreSQL releases when the transaction ends in any way,
 * a killed process included.
 *
 * The body of an answer that shows a secret (routes marked `@Idempotent({ secretInAnswer: true })`)
 * is sealed with ENCRYPTION_KEY, as the secret is where it is kept (or only its hash is), so 24 hours
 * of replays are no way around that; `encryption:reseal` moves these bodies to a new key with the
 * other sealed values.
 */
@Injectable()
export class IdempotencyStore implements OnModuleInit {
  private readonly logger = new Logger(IdempotencyStore.name);

  private readonly box: SecretBox | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly erasure: ErasureRegistry,
    sealedValues: SealedValues,
  ) {
    this.box = config.encryptionKey ? new SecretBox(config.encryptionKey) : null;
    sealedValues.register({ name: 'idempotency_records', sample: sampleSealedAnswer, resealAll: resealAnswers });
  }

  /**
   * A stored answer can carry a person's email or user id: erasing them deletes it. A sealed answer
   * this key cannot open (sealed under an earlier key, not re-sealed) is read as naming no one: it is
   * as unreadable to anyone holding the database, and expires within 24 hours.
   */
  onModuleInit(): void {
    const openForErasure = (sealed: string): string | null => {
      try {
        return this.open(sealed);
      } catch (error) {
        if (error instanceof SealedValueUnreadable) return null;
        throw error;
      }
    };
    this.erasure.contribute('idempotent_answers', (em, person) => deleteAnswersNamingPerson(em, person, openForErasure));
  }

  /** The committed, unexpired answer for (scope, key), or null. */
  async find(scope: string, key: string, now: Date, em: EntityManager = this.db.manager): Promise<StoredAnswer | null> {
    const row = await findUnexpiredRecord(em, scope, key, now);
    if (!row) return null;
    const body = row.response_sealed ? this.open(row.response_body) : row.response_body;
    return {
      requestHash: row.request_hash,
      answer: { status: row.response_status, headers: row.response_headers, body },
    };
  }

  /**
   * Takes (scope, key) for the rest of `em`'s transaction without waiting; false when another
   * transaction holds it. A 32-bit hash of the key: a collision only makes a concurrent request
   * with another key answer "in progress", never share an answer (records are read by exact key).
   */
  async tryLock(em: EntityManager, scope: string, key: string): Promise<boolean> {
    const rows: Array<{ locked: boolean }> = await em.query(
      `SELECT pg_try_advisory_xact_lock($1::int, hashtext($2 || ' ' || $3)) AS locked`,
      [IDEMPOTENCY_LOCK_SPACE, scope, key],
    );
    return rows[0]?.locked === true;
  }

  /** Writes the answer in `em`'s transaction; replaces an expired record of the same key. */
  async save(em: EntityManager, record: NewRecord): Promise<void> {
    await upsertRecord(em, [
      record.scope,
      record.key,
      record.requestHash,
      record.answer.status,
      JSON.stringify(record.answer.headers),
      record.sealed ? this.required().seal(record.answer.body) : record.answer.body,
      record.createdAt,
      record.expiresAt,
      record.projectId,
      record.sealed,
    ]);
  }

  /** Throws SealedValueUnreadable (503 SEALED_VALUE_UNREADABLE) when another key sealed it. */
  private open(sealed: string): string {
    return this.required().open(sealed);
  }

  private required(): SecretBox {
    if (!this.box) throw new Error('ENCRYPTION_KEY is not configured');
    return this.box;
  }

  /** Hourly, in worker processes only (an API-only process leaves it to them), one at a time. */
  @Cron(CronExpression.EVERY_HOUR, { name: 'idempotency-retention' })
  async purgeHourly(): Promise<void> {
    if (!this.config.workers) return;
    try {
      await this.purgeExpired();
    } catch (error) {
      this.logger.warn(`Idempotency retention failed: ${(error as Error).message}`);
    }
  }

  /** Deletes the expired answers; null when another process's purge is running. */
  purgeExpired(): Promise<number | null> {
    return this.db.transaction((em) => purgeExpiredAnswers(em, this.clock.now()));
  }
}
