import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { WireAnswer } from '../common/http/request-context';
import { Database } from '../infra/database/database.service';
import { ErasureRegistry } from '../infra/erasure/erasure-registry.service';
import { deleteAnswersNamingPerson, findUnexpiredRecord, purgeExpiredAnswers, upsertRecord } from './idempotency.queries';

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
}

// Any fixed number: the first half of the two-part advisory lock key, so idempotency claims never
// share a lock with other advisory locks (single-bigint locks live in a separate key space).
export const IDEMPOTENCY_LOCK_SPACE = 0x1de4;

/**
 * Idempotency records (see IdempotentCall for the protocol). Rows are only ever written inside the
 * effect's transaction, as its last statement; a request in progress holds a transaction-scoped
 * advisory lock instead of a row, which PostgreSQL releases when the transaction ends in any way,
 * a killed process included.
 */
@Injectable()
export class IdempotencyStore implements OnModuleInit {
  private readonly logger = new Logger(IdempotencyStore.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly erasure: ErasureRegistry,
  ) {}

  /** A stored answer can carry a person's email or user id: erasing them deletes it. */
  onModuleInit(): void {
    this.erasure.contribute('idempotent_answers', deleteAnswersNamingPerson);
  }

  /** The committed, unexpired answer for (scope, key), or null. */
  async find(scope: string, key: string, now: Date, em: EntityManager = this.db.manager): Promise<StoredAnswer | null> {
    const row = await findUnexpiredRecord(em, scope, key, now);
    if (!row) return null;
    return {
      requestHash: row.request_hash,
      answer: { status: row.response_status, headers: row.response_headers, body: row.response_body },
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
      record.answer.body,
      record.createdAt,
      record.expiresAt,
      record.projectId,
    ]);
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
