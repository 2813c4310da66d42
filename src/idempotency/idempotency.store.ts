import { Injectable } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { Clock } from '../common/clock/clock';
import { Database } from '../infra/database/database';
import { PLATFORM_LIMITS } from '../projects/plans';
import { IdempotencyRecordEntity } from './entities/idempotency-record.entity';

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; headers: Record<string, string>; body: unknown }
  | { kind: 'conflict'; reason: 'different_body' | 'in_progress' };

const RETENTION_MS = PLATFORM_LIMITS.idempotencyRetentionHours * 3_600_000;
// A request still "in progress" after this long was abandoned by a crashed process.
const ABANDONED_AFTER_MS = 120_000;
const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 25;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Idempotency records: the first request claims (credential, key) with an INSERT that the primary
 * key decides, so two concurrent requests can never both run. The second waits for the first to
 * finish and replays its response, or gets a conflict if it takes too long.
 */
@Injectable()
export class IdempotencyStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async claim(scope: string, key: string, requestHash: string): Promise<Claim> {
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      if (await this.insertOrTakeOver(scope, key, requestHash)) return { kind: 'claimed' };
      const existing = await this.db.manager.findOneBy(IdempotencyRecordEntity, { scope, key });
      if (!existing) continue; // deleted by retention between the two statements
      if (existing.requestHash !== requestHash) return { kind: 'conflict', reason: 'different_body' };
      if (existing.state === 'completed') {
        return {
          kind: 'replay',
          status: existing.responseStatus ?? 200,
          headers: existing.responseHeaders ?? {},
          body: existing.responseBody,
        };
      }
      if (Date.now() >= deadline) return { kind: 'conflict', reason: 'in_progress' };
      await sleep(POLL_MS);
    }
  }

  async complete(scope: string, key: string, status: number, headers: Record<string, string>, body: unknown): Promise<void> {
    await this.db.manager.update(
      IdempotencyRecordEntity,
      { scope, key },
      { state: 'completed', responseStatus: status, responseHeaders: headers, responseBody: body as object },
    );
  }

  /** Forgets a claim whose outcome should not be replayed (validation errors, 429, 5xx). */
  async release(scope: string, key: string): Promise<void> {
    await this.db.manager.delete(IdempotencyRecordEntity, { scope, key, state: 'in_progress' });
  }

  @Cron(CronExpression.EVERY_HOUR, { name: 'idempotency-retention' })
  async purgeExpired(): Promise<number> {
    const result = await this.db.manager
      .createQueryBuilder()
      .delete()
      .from(IdempotencyRecordEntity)
      .where('expires_at <= :now', { now: this.clock.now() })
      .execute();
    return result.affected ?? 0;
  }

  /** Inserts a fresh claim, or takes over an expired or abandoned one; false when another holds it. */
  private async insertOrTakeOver(scope: string, key: string, requestHash: string): Promise<boolean> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + RETENTION_MS);
    const abandonedBefore = new Date(now.getTime() - ABANDONED_AFTER_MS);
    // One statement so the primary key arbitrates concurrent claims: insert, or replace a row that
    // expired (24 h retention) or was abandoned mid-request.
    const rows: unknown[] = await this.db.manager.query(
      `INSERT INTO idempotency_records (scope, key, request_hash, state, created_at, expires_at)
       VALUES ($1, $2, $3, 'in_progress', $4, $5)
       ON CONFLICT (scope, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, state = 'in_progress', response_status = NULL,
             response_headers = NULL, response_body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
         WHERE idempotency_records.expires_at <= $4
            OR (idempotency_records.state = 'in_progress' AND idempotency_records.created_at < $6)
       RETURNING scope`,
      [scope, key, requestHash, now, expiresAt, abandonedBefore],
    );
    return rows.length > 0;
  }
}
