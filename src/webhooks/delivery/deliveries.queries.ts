import { type EntityManager, In } from 'typeorm';
import { type PersonToErase, textPatternsOf } from '../../infra/erasure/person-match';
import { WebhookDeliveryAttemptEntity } from '../entities/webhook-delivery-attempt.entity';
import type { WebhookEndpointEntity } from '../entities/webhook-endpoint.entity';

/** Failed attempts in a row that switch an endpoint off (spec: Limits → Webhooks). */
const AUTO_DISABLE_AFTER = 20;

interface PlannedDelivery {
  id: string;
  nextAttemptAt: Date;
}

/**
 * One delivery per enabled endpoint of the project subscribed to the type (`events` holds it or
 * "*"), in ONE statement inside the event's transaction. Ids are made here (ULIDs, which SQL cannot
 * make) and handed out by row number; `ids` must be at least as long as the project's endpoint
 * count. `jsonOnly` leaves chat endpoints out (an entry published with notify_chat false).
 */
export async function insertPlannedDeliveries(
  em: EntityManager,
  event: { id: string; projectId: string; type: string; createdAt: Date },
  ids: readonly string[],
  jsonOnly: boolean,
): Promise<PlannedDelivery[]> {
  const rows: { id: string; next_attempt_at: Date }[] = await em.query(
    `INSERT INTO webhook_deliveries
       (id, project_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
     SELECT ($1::text[])[row_number() OVER (ORDER BY e.id)], e.project_id, e.id, $3::text, $4::text, 'pending', 0, $5::timestamptz, $5::timestamptz
       FROM webhook_endpoints e
      WHERE e.project_id = $2 AND e.status = 'enabled' AND (e.events ? $4::text OR e.events ? '*')
        AND ($6::boolean = false OR e.format = 'json')
     RETURNING id, next_attempt_at`,
    [ids, event.projectId, event.id, event.type, event.createdAt, jsonOnly],
  );
  return rows.map((row) => ({ id: row.id, nextAttemptAt: new Date(row.next_attempt_at) }));
}

/** Any success resets the failure streak; the condition spares a write when there is none. */
export async function resetFailureStreak(em: EntityManager, endpointId: string): Promise<void> {
  await em.query('UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id = $1 AND consecutive_failures <> 0', [endpointId]);
}

/**
 * Counts one failed attempt and, at AUTO_DISABLE_AFTER, switches the endpoint off with the reason,
 * in one statement (two workers failing at once both count; exactly one of them crosses the line).
 * Answers the new streak and whether this call switched it off.
 */
export async function countFailure(
  em: EntityManager,
  endpointId: string,
  lastFailure: string,
  now: Date,
): Promise<{ consecutiveFailures: number; disabledNow: boolean } | null> {
  const reason = `${AUTO_DISABLE_AFTER} consecutive failed deliveries; last: ${lastFailure}`.slice(0, 1_000);
  const [rows] = (await em.query(
    `UPDATE webhook_endpoints
        SET consecutive_failures = consecutive_failures + 1,
            status = CASE WHEN status = 'enabled' AND consecutive_failures + 1 >= $2 THEN 'disabled' ELSE status END,
            disabled_reason = CASE WHEN status = 'enabled' AND consecutive_failures + 1 >= $2 THEN $3 ELSE disabled_reason END,
            disabled_at = CASE WHEN status = 'enabled' AND consecutive_failures + 1 >= $2 THEN $4 ELSE disabled_at END
      WHERE id = $1
      RETURNING consecutive_failures, (status = 'disabled' AND consecutive_failures = $2) AS disabled_now`,
    [endpointId, AUTO_DISABLE_AFTER, reason, now],
  )) as [{ consecutive_failures: number; disabled_now: boolean }[], number];
  const row = rows[0];
  return row ? { consecutiveFailures: row.consecutive_failures, disabledNow: row.disabled_now } : null;
}

/**
 * Attempts kept per delivery, newest first: one spec schedule is 6 attempts (the first and 5
 * retries), so this holds a whole failed schedule and the whole schedule of a later recover; only
 * repeated manual retries go past it, and then the oldest go. It bounds a log page (at most 100
 * deliveries) to 1,200 attempts.
 */
export const ATTEMPTS_KEPT = 12;

/** One HTTP attempt's outcome, as the sender measured it. */
interface AttemptOutcome {
  status: number | null;
  excerpt: string | null;
  durationMs: number;
  error: string | null;
  at: Date;
}

// Kept short: the sender's reasons are one line; a longer one is cut, not refused.
const ATTEMPT_ERROR_MAX_LENGTH = 1_000;

/**
 * Records one HTTP attempt in ONE statement: its row in the attempt log (the oldest beyond
 * ATTEMPTS_KEPT dropped) and, while the delivery is still on the attempt that made it (`attempts`),
 * the delivery's last-answer columns. One statement per request sent, each with a fresh id, so an
 * attempt is never logged twice and the log never disagrees with the delivery's last answer. An
 * attempt that overran its lease (another worker claimed the row since) is still logged: the
 * receiver did get that request.
 */
export async function recordAttempt(
  em: EntityManager,
  delivery: { id: string; projectId: string; attempts: number },
  attemptId: string,
  outcome: AttemptOutcome,
): Promise<void> {
  await em.query(
    `WITH answer AS (
       UPDATE webhook_deliveries SET response_status = $4, response_excerpt = $5, duration_ms = $6, last_attempt_at = $7
        WHERE id = $2 AND attempts = $8
     ), trimmed AS (
       DELETE FROM webhook_delivery_attempts WHERE id IN (
         SELECT id FROM webhook_delivery_attempts WHERE delivery_id = $2 ORDER BY attempted_at DESC, id DESC OFFSET $10)
     )
     INSERT INTO webhook_delivery_attempts
       (id, project_id, delivery_id, attempt, attempted_at, response_status, error, duration_ms, response_excerpt)
     VALUES ($1, $3, $2, $8, $7, $4, $9, $6, $5)`,
    [
      attemptId,
      delivery.id,
      delivery.projectId,
      outcome.status,
      outcome.excerpt,
      outcome.durationMs,
      outcome.at,
      delivery.attempts,
      outcome.error?.slice(0, ATTEMPT_ERROR_MAX_LENGTH) ?? null,
      ATTEMPTS_KEPT - 1,
    ],
  );
}

/** The attempt log of some deliveries of the project, oldest first, by delivery id. */
export async function attemptsOf(
  em: EntityManager,
  projectId: string,
  deliveryIds: readonly string[],
): Promise<Map<string, WebhookDeliveryAttemptEntity[]>> {
  const byDelivery = new Map<string, WebhookDeliveryAttemptEntity[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await em.find(WebhookDeliveryAttemptEntity, {
    where: { projectId, deliveryId: In([...deliveryIds]) },
    order: { attemptedAt: 'ASC', id: 'ASC' },
  });
  for (const row of rows) byDelivery.set(row.deliveryId, [...(byDelivery.get(row.deliveryId) ?? []), row]);
  return byDelivery;
}

export type EndpointForDelivery = Pick<
  WebhookEndpointEntity,
  'id' | 'projectId' | 'format' | 'status' | 'urlCiphertext' | 'secretCiphertext' | 'previousSecretCiphertext' | 'previousSecretValidUntil'
>;

// A row is redelivered with a fresh schedule unless an attempt holds it right now.
const NOT_IN_FLIGHT = "NOT (status = 'pending' AND locked_until IS NOT NULL AND locked_until > $2)";

/** Makes one delivery due now with a fresh schedule; false when an attempt is in flight. */
export async function requeueDelivery(em: EntityManager, id: string, now: Date): Promise<boolean> {
  const [, affected] = (await em.query(
    `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = $2, locked_until = NULL, last_error = NULL, delivered_at = NULL
      WHERE id = $1 AND ${NOT_IN_FLIGHT}`,
    [id, now],
  )) as [unknown, number];
  return affected > 0;
}

/** Every failed delivery of the endpoint created since `since`, due now with a fresh schedule. */
export async function requeueFailedSince(
  em: EntityManager,
  projectId: string,
  endpointId: string,
  since: Date,
  now: Date,
): Promise<PlannedDelivery[]> {
  const [rows] = (await em.query(
    `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = $1, locked_until = NULL, last_error = NULL
      WHERE project_id = $2 AND endpoint_id = $3 AND status = 'failed' AND created_at >= $4
      RETURNING id, next_attempt_at`,
    [now, projectId, endpointId, since],
  )) as [{ id: string; next_attempt_at: Date }[], number];
  return rows.map((row) => ({ id: row.id, nextAttemptAt: new Date(row.next_attempt_at) }));
}

/**
 * Erasure: clears the stored answer excerpts of the project's deliveries and of their attempts that
 * quote the person (a receiver echoing the payload, or naming them in an error): their email,
 * whatever its case, or a user id, as a whole token of the text (textPatternsOf). The rest of the
 * log stays. Answers how many deliveries had an excerpt cleared (on the delivery or any of its
 * attempts). The payload itself is never stored: it is rebuilt from the event at every attempt and
 * listing, and the events module's erasure blanks the event.
 */
export async function clearResponsesNamingPerson(em: EntityManager, person: PersonToErase): Promise<number> {
  const patterns = textPatternsOf(person);
  if (patterns.caseInsensitive.length + patterns.caseSensitive.length === 0) return 0;
  const naming = `(EXISTS (SELECT 1 FROM unnest($2::text[]) AS p(pattern) WHERE response_excerpt ~* p.pattern)
          OR EXISTS (SELECT 1 FROM unnest($3::text[]) AS p(pattern) WHERE response_excerpt ~ p.pattern))`;
  const rows: { cleared: number }[] = await em.query(
    `WITH attempts AS (
       UPDATE webhook_delivery_attempts SET response_excerpt = NULL
        WHERE project_id = $1 AND response_excerpt IS NOT NULL AND ${naming}
       RETURNING delivery_id AS id
     ), deliveries AS (
       UPDATE webhook_deliveries SET response_excerpt = NULL
        WHERE project_id = $1 AND response_excerpt IS NOT NULL AND ${naming}
       RETURNING id
     )
     SELECT count(*)::int AS cleared FROM (SELECT id FROM attempts UNION SELECT id FROM deliveries) AS touched`,
    [person.projectId, patterns.caseInsensitive, patterns.caseSensitive],
  );
  return rows[0]?.cleared ?? 0;
}

/** A page of endpoint ids in id order (keyset), for the delivery log's retention. */
export async function endpointIdsAfter(em: EntityManager, after: string, limit: number): Promise<string[]> {
  const rows: { id: string }[] = await em.query('SELECT id FROM webhook_endpoints WHERE id > $1 ORDER BY id LIMIT $2', [after, limit]);
  return rows.map((row) => row.id);
}

/** Deletes up to `limit` of the endpoint's delivery log entries created before `cutoff`; answers how many. */
export async function deleteExpiredBatch(em: EntityManager, endpointId: string, cutoff: Date, limit: number): Promise<number> {
  const [, affected] = (await em.query(
    `DELETE FROM webhook_deliveries WHERE ctid = ANY (ARRAY(
       SELECT ctid FROM webhook_deliveries WHERE endpoint_id = $1 AND created_at < $2 LIMIT $3))`,
    [endpointId, cutoff, limit],
  )) as [unknown, number];
  return affected;
}
