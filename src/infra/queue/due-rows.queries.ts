import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AfterFailure, leaseTimes } from './retry-schedule';

/** The columns of the due-row convention, as entity properties (snake_case in the table). */
export interface DueRow {
  id: string;
  /** 'pending' until a success state or 'failed'. */
  status: string;
  /** Attempts started, counted when a worker claims the row. */
  attempts: number;
  nextAttemptAt: Date;
  /** A worker's lease; the row is left alone until it ends. */
  lockedUntil: Date | null;
  lastError: string | null;
}

/** The convention columns of a row that is new: pending, due at `dueAt`. */
export function pendingColumns(dueAt: Date): Omit<DueRow, 'id'> {
  return { status: 'pending', attempts: 0, nextAttemptAt: dueAt, lockedUntil: null, lastError: null };
}

/** What the queries need to know about one kind of due row. */
export interface DueRowTable<Row extends DueRow> {
  readonly entity: EntityTarget<Row>;
  readonly leaseMs: number;
  readonly maxAttempts: number;
}

export const ABANDONED_ERROR = 'No outcome from the last attempt: the worker stopped or overran its lease';

// Kept short: a failure reason can carry a whole server response.
const LAST_ERROR_MAX_LENGTH = 2_000;

const PENDING = "status = 'pending'";
const DUE = 'next_attempt_at <= :now';
// No lease, an ended lease, or one that ends later than a lease taken now could: see leaseTimes.
const LEASE_FREE = '(locked_until IS NULL OR locked_until <= :now OR locked_until > :latestPlausibleLeaseEnd)';
const CLAIMABLE = `${PENDING} AND ${DUE} AND attempts < :maxAttempts AND ${LEASE_FREE}`;

function parameters<Row extends DueRow>(table: DueRowTable<Row>, now: Date): Record<string, unknown> {
  return { now, maxAttempts: table.maxAttempts, ...leaseTimes(now, table.leaseMs) };
}

// The values are the convention's columns (or the caller's own), which the generic Row cannot show.
function columns<Row extends DueRow>(values: ObjectLiteral): QueryDeepPartialEntity<Row> {
  return values as QueryDeepPartialEntity<Row>;
}

/** Ids of rows a worker may claim now, the longest overdue first. */
export async function findDueRowIds<Row extends DueRow>(
  em: EntityManager,
  table: DueRowTable<Row>,
  now: Date,
  limit: number,
): Promise<string[]> {
  const rows: { id: string }[] = await em
    .createQueryBuilder(table.entity, 'due')
    .select('due.id', 'id')
    .where(CLAIMABLE, parameters(table, now))
    .orderBy('due.next_attempt_at', 'ASC')
    .addOrderBy('due.id', 'ASC')
    .limit(limit)
    .getRawMany();
  return rows.map((row) => row.id);
}

/**
 * Takes the lease on one claimable row and counts the attempt, in one UPDATE: of any number of
 * concurrent claims the database lets exactly one match. Counting at claim time means a worker
 * that dies mid-attempt still used an attempt, so a row that crashes its worker runs out.
 */
export async function claimDueRow<Row extends DueRow>(
  em: EntityManager,
  table: DueRowTable<Row>,
  id: string,
  now: Date,
): Promise<Row | null> {
  const result = await em
    .createQueryBuilder()
    .update(table.entity)
    .set(columns<Row>({ lockedUntil: leaseTimes(now, table.leaseMs).leaseEnd, attempts: () => 'attempts + 1' }))
    .where(`id = :id AND ${CLAIMABLE}`, { id, ...parameters(table, now) })
    .returning('*')
    .execute();
  const raw = (result.raw as Record<string, unknown>[])[0];
  return raw ? hydrate(em, table.entity, raw) : null;
}

/** Success: the given state (and columns), no lease, no error. A late success still counts. */
export async function recordDueRowSuccess<Row extends DueRow>(
  em: EntityManager,
  table: DueRowTable<Row>,
  id: string,
  values: ObjectLiteral & { status: string },
): Promise<void> {
  await em
    .createQueryBuilder()
    .update(table.entity)
    .set(columns<Row>({ ...values, lockedUntil: null, lastError: null }))
    .where(`id = :id AND ${PENDING}`, { id })
    .execute();
}

/** Failure of the attempt `row` was claimed for; ignored when another claim took the row since. */
export async function recordDueRowFailure<Row extends DueRow>(
  em: EntityManager,
  table: DueRowTable<Row>,
  row: Row,
  outcome: AfterFailure,
  reason: string,
): Promise<void> {
  await em
    .createQueryBuilder()
    .update(table.entity)
    .set(columns<Row>({ ...outcome, lockedUntil: null, lastError: reason.slice(0, LAST_ERROR_MAX_LENGTH) }))
    .where(`id = :id AND ${PENDING} AND attempts = :attempts`, { id: row.id, attempts: row.attempts })
    .execute();
}

/** Rows whose last attempt never reported back (its lease ended) fail; returns how many. */
export async function failAbandonedDueRows<Row extends DueRow>(em: EntityManager, table: DueRowTable<Row>, now: Date): Promise<number> {
  const result = await em
    .createQueryBuilder()
    .update(table.entity)
    .set(columns<Row>({ status: 'failed', lockedUntil: null, lastError: ABANDONED_ERROR }))
    .where(`${PENDING} AND attempts >= :maxAttempts AND ${LEASE_FREE}`, parameters(table, now))
    .execute();
  return result.affected ?? 0;
}

/** RETURNING gives column names and database values; this makes the entity TypeORM would. */
function hydrate<Row extends ObjectLiteral>(em: EntityManager, entity: EntityTarget<Row>, raw: Record<string, unknown>): Row {
  const metadata = em.connection.getMetadata(entity);
  const row = metadata.create() as Row;
  for (const column of metadata.columns) {
    column.setEntityValue(row, em.connection.driver.prepareHydratedValue(raw[column.databaseName], column));
  }
  return row;
}
