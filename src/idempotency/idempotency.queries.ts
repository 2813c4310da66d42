import type { EntityManager } from 'typeorm';
import type { Reseal } from '../infra/encryption/sealed-values.service';
import { type PersonToErase, isPersonOrRecordValue, jsonTextHasValue, jsonTokensOf } from '../infra/erasure/person-match';

/**
 * Erasure: deletes the project's stored answers that name the person: a string value of the
 * answer's JSON body equal to their email, a user id, or the id of a record of theirs the erasure
 * deleted (a signup's answer holds its id, not the email). Expired answers not yet purged go too.
 * A retry with such a key then runs afresh, as after the 24-hour retention.
 *
 * A text search for those values as JSON string tokens picks the candidates among the plain
 * answers, so only those are parsed; the parsed check keeps answers that hold a token as something
 * else (an object key). Sealed answers (a created key or webhook: few) are opened with `open` and
 * checked alike; one that `open` cannot read (null) is left. The cost is one pass over the
 * project's answers of the last 24 hours (retention bounds them; ix_idempotency_records_project
 * finds them).
 */
export async function deleteAnswersNamingPerson(
  em: EntityManager,
  person: PersonToErase,
  open: (sealed: string) => string | null,
): Promise<number> {
  const tokens = jsonTokensOf(person, true);
  if (tokens.lowerCased.length + tokens.exact.length === 0) return 0;
  const plain: { scope: string; key: string; response_body: string }[] = await em.query(
    `SELECT scope, key, response_body FROM idempotency_records
      WHERE project_id = $1 AND NOT response_sealed
        AND (EXISTS (SELECT 1 FROM unnest($2::text[]) AS t(token) WHERE strpos(lower(response_body), t.token) > 0)
          OR EXISTS (SELECT 1 FROM unnest($3::text[]) AS t(token) WHERE strpos(response_body, t.token) > 0))
      FOR UPDATE`,
    [person.projectId, tokens.lowerCased, tokens.exact],
  );
  const sealed: { scope: string; key: string; response_body: string }[] = await em.query(
    `SELECT scope, key, response_body FROM idempotency_records WHERE project_id = $1 AND response_sealed FOR UPDATE`,
    [person.projectId],
  );
  const opened = sealed.flatMap((row) => {
    const body = open(row.response_body);
    return body === null ? [] : [{ ...row, response_body: body }];
  });
  const naming = [...plain, ...opened].filter((row) =>
    jsonTextHasValue(row.response_body, (value) => isPersonOrRecordValue(value, person)),
  );
  if (naming.length === 0) return 0;
  const [, deleted] = (await em.query(
    `DELETE FROM idempotency_records r USING jsonb_to_recordset($2::jsonb) AS gone(scope text, key text)
      WHERE r.project_id = $1 AND r.scope = gone.scope AND r.key = gone.key`,
    [person.projectId, JSON.stringify(naming.map(({ scope, key }) => ({ scope, key })))],
  )) as [unknown, number];
  return deleted;
}

/** Any one sealed answer, for the start-up check of ENCRYPTION_KEY; null when none. */
export async function sampleSealedAnswer(em: EntityManager): Promise<string | null> {
  const rows: { response_body: string }[] = await em.query('SELECT response_body FROM idempotency_records WHERE response_sealed LIMIT 1');
  return rows[0]?.response_body ?? null;
}

/** `encryption:reseal`'s pass over the sealed answers, locked for update; only changed rows are written. */
export async function resealAnswers(em: EntityManager, reseal: Reseal): Promise<void> {
  const rows: { scope: string; key: string; response_body: string }[] = await em.query(
    'SELECT scope, key, response_body FROM idempotency_records WHERE response_sealed ORDER BY scope, key FOR UPDATE',
  );
  for (const row of rows) {
    const body = reseal(row.response_body, `${row.scope}/${row.key}`);
    if (body === row.response_body) continue;
    await em.query('UPDATE idempotency_records SET response_body = $3 WHERE scope = $1 AND key = $2', [row.scope, row.key, body]);
  }
}

/**
 * The lock of the hourly purge: one bigint key (two-part claim locks live in another key space). A
 * worker that finds it held skips the hour's run, so the purge runs in one process at a time
 * whatever the number of workers, and two never contend for the same rows.
 */
export const PURGE_LOCK_NAME = 'idempotency-retention';

/** Deletes the answers expired at `now`; null when another process holds the purge lock. */
export async function purgeExpiredAnswers(em: EntityManager, now: Date): Promise<number | null> {
  const [{ locked }]: { locked: boolean }[] = await em.query(`SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked`, [
    PURGE_LOCK_NAME,
  ]);
  if (!locked) return null;
  const [, deleted] = (await em.query(`DELETE FROM idempotency_records WHERE expires_at <= $1`, [now])) as [unknown, number];
  return deleted;
}

interface StoredRecordRow {
  request_hash: string;
  response_status: number;
  response_headers: Record<string, string>;
  /** Sealed with ENCRYPTION_KEY when `response_sealed`. */
  response_body: string;
  response_sealed: boolean;
}

/** The committed, unexpired record for (scope, key), or null. */
export async function findUnexpiredRecord(em: EntityManager, scope: string, key: string, now: Date): Promise<StoredRecordRow | null> {
  const rows: StoredRecordRow[] = await em.query(
    `SELECT request_hash, response_status, response_headers, response_body, response_sealed
           FROM idempotency_records WHERE scope = $1 AND key = $2 AND expires_at > $3`,
    [scope, key, now],
  );
  return rows[0] ?? null;
}

/**
 * Writes a record, replacing an expired one of the same key. Parameters: scope, key, request hash,
 * status, headers (JSON), body, created at, expires at, project, whether the body is sealed.
 */
export async function upsertRecord(em: EntityManager, params: unknown[]): Promise<void> {
  await em.query(
    `INSERT INTO idempotency_records (scope, key, request_hash, response_status, response_headers, response_body, created_at, expires_at, project_id, response_sealed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (scope, key) DO UPDATE
         SET project_id = EXCLUDED.project_id, request_hash = EXCLUDED.request_hash, response_status = EXCLUDED.response_status,
             response_headers = EXCLUDED.response_headers, response_body = EXCLUDED.response_body, response_sealed = EXCLUDED.response_sealed,
             created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at`,
    params,
  );
}
