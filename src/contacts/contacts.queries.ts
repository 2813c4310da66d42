import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { CONTACT_STAGES, type ContactStage } from './contact-stages';
import type { ConsentRecord, ContactDetails, ContactEntity } from './entities/contact.entity';

/** The column a single-key upsert finds people by; each has a partial unique index per project. */
export type ContactKey = 'email' | 'user_id';

/** One person to insert, or to merge into the contact that already has `key`. */
export interface ContactKeyRow {
  /** The id a new contact gets; unused when the person exists. */
  id: string;
  /** The email (normalised) or the user id. */
  key: string;
  stage: ContactStage;
  consents: Record<string, ConsentRecord>;
  details: ContactDetails;
  /** null: keep what the contact has (false for a new one). */
  paying: boolean | null;
}

// Both statements differ only in the key column, so they are built from this whitelist once.
const UPSERT_BY_KEY: Record<ContactKey, string> = {
  email: upsertByKeySql('email', 'user_id'),
  user_id: upsertByKeySql('user_id', 'email'),
};

function upsertByKeySql(key: ContactKey, other: ContactKey): string {
  return `WITH input AS (
      SELECT * FROM unnest($2::varchar[], $3::varchar[], $4::varchar[], $5::jsonb[], $6::jsonb[], $7::boolean[]) WITH ORDINALITY
        AS input(id, key, stage, consents, details, paying, ordinal)
    )
    INSERT INTO contacts AS c (id, project_id, ${key}, ${other}, stage, consents, details, paying, created_at, updated_at)
    SELECT input.id, $1, input.key, NULL, input.stage, input.consents, input.details, COALESCE(input.paying, false), $8, $8
    FROM input ORDER BY input.ordinal
    ON CONFLICT (project_id, ${key}) WHERE ${key} IS NOT NULL DO UPDATE SET
      stage = CASE WHEN array_position($9::varchar[], EXCLUDED.stage) > array_position($9::varchar[], c.stage)
                   THEN EXCLUDED.stage ELSE c.stage END,
      consents = c.consents || EXCLUDED.consents,
      details = c.details || EXCLUDED.details,
      paying = COALESCE((SELECT input.paying FROM input WHERE input.key = EXCLUDED.${key}), c.paying),
      updated_at = EXCLUDED.updated_at
    RETURNING c.*`;
}

interface ContactRow {
  id: string;
  project_id: string;
  email: string | null;
  user_id: string | null;
  stage: ContactStage;
  consents: Record<string, ConsentRecord>;
  details: ContactDetails;
  paying: boolean;
  created_at: Date;
  updated_at: Date;
}

function toContactEntity(row: ContactRow): ContactEntity {
  return {
    id: row.id,
    projectId: row.project_id,
    email: row.email,
    userId: row.user_id,
    stage: row.stage,
    consents: row.consents,
    details: row.details,
    paying: row.paying,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Inserts each person, or merges into the contact that has their key, in one statement whatever
 * the count: details and consents shallow-merged with new values winning (jsonb `||`), the stage
 * only moving forward, `paying` kept unless given. Raw SQL because TypeORM's upsert can only
 * overwrite columns, and a locked read followed by a write costs two or three round trips per
 * person. Rows are written in the given order, which is the order their row locks are taken;
 * keys must be distinct (PostgreSQL refuses to touch a row twice in one statement).
 */
export async function upsertContactsByKey(
  em: EntityManager,
  projectId: string,
  key: ContactKey,
  rows: readonly ContactKeyRow[],
  now: Date,
): Promise<ContactEntity[]> {
  if (rows.length === 0) return [];
  const result: ContactRow[] = await em.query(UPSERT_BY_KEY[key], [
    projectId,
    rows.map((row) => row.id),
    rows.map((row) => row.key),
    rows.map((row) => row.stage),
    rows.map((row) => JSON.stringify(row.consents)),
    rows.map((row) => JSON.stringify(row.details)),
    rows.map((row) => row.paying),
    now,
    CONTACT_STAGES,
  ]);
  return result.map(toContactEntity);
}

/*
 * Linking an email to a user id may find two contacts and merge them, so it reads and locks its
 * matches first. Raw SQL for the same reason as above: identify and server-sent feedback run it on
 * every call, and TypeORM's builders cost several times the statements themselves.
 */

/** The contacts with this email or this user id (at most two), locked until the transaction ends. */
export async function lockContactsByEmailOrUserId(
  em: EntityManager,
  projectId: string,
  email: string,
  userId: string,
): Promise<ContactEntity[]> {
  const rows: ContactRow[] = await em.query(
    'SELECT * FROM contacts WHERE project_id = $1 AND (email = $2 OR user_id = $3) ORDER BY id FOR UPDATE',
    [projectId, email, userId],
  );
  return rows.map(toContactEntity);
}

/** Inserts the contact unless its email or user id is taken (both partial unique indexes arbitrate); true when it did. */
export async function insertContactIfAbsent(em: EntityManager, contact: ContactEntity): Promise<boolean> {
  const rows: { id: string }[] = await em.query(
    `INSERT INTO contacts (id, project_id, email, user_id, stage, consents, details, paying, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9, $10)
     ON CONFLICT DO NOTHING
     RETURNING id`,
    [
      contact.id,
      contact.projectId,
      contact.email,
      contact.userId,
      contact.stage,
      JSON.stringify(contact.consents),
      JSON.stringify(contact.details),
      contact.paying,
      contact.createdAt,
      contact.updatedAt,
    ],
  );
  return rows.length > 0;
}

/** Writes the merged state of a contact this transaction holds locked. */
export async function updateContact(em: EntityManager, contact: ContactEntity): Promise<void> {
  await em.query(
    `UPDATE contacts SET email = $2, user_id = $3, stage = $4, consents = $5::jsonb, details = $6::jsonb, paying = $7, updated_at = $8
     WHERE id = $1`,
    [
      contact.id,
      contact.email,
      contact.userId,
      contact.stage,
      JSON.stringify(contact.consents),
      JSON.stringify(contact.details),
      contact.paying,
      contact.updatedAt,
    ],
  );
}

/** Sets `paying` on exactly `contactIds` and clears it on every other contact of the project; writes only rows that change. */
export async function setPayingContacts(em: EntityManager, projectId: string, contactIds: readonly string[], now: Date): Promise<void> {
  await em.query(
    `UPDATE contacts SET paying = (id = ANY($2::text[])), updated_at = $3
      WHERE project_id = $1 AND paying IS DISTINCT FROM (id = ANY($2::text[]))`,
    [projectId, [...contactIds], now],
  );
}

export async function deleteContact(em: EntityManager, id: string): Promise<void> {
  await em.query('DELETE FROM contacts WHERE id = $1', [id]);
}

/** The filters of `GET /v1/contacts` (spec: Contact): notifications reuse them to pick a group. */
export interface ContactFilter {
  stage?: ContactStage;
  /** `purpose` (granted) or `purpose:granted|withdrawn`. */
  consent?: string;
  /** `key=value` pairs; all must hold. */
  detail?: readonly string[];
  paying?: 'true' | 'false';
}

/** Adds `filter`'s conditions (AND) to a query over contacts aliased `qb.alias`, already limited to one project. */
export function whereContactsMatch<Row extends object>(qb: SelectQueryBuilder<Row>, filter: ContactFilter): SelectQueryBuilder<Row> {
  const c = qb.alias;
  if (filter.stage) qb.andWhere(`${c}.stage = :stage`, { stage: filter.stage });
  if (filter.paying) qb.andWhere(`${c}.paying = :paying`, { paying: filter.paying === 'true' });
  if (filter.consent) {
    const [purpose, status = 'granted'] = filter.consent.split(':');
    qb.andWhere(`${c}.consents -> :purpose ->> 'status' = :consentStatus`, { purpose, consentStatus: status });
  }
  (filter.detail ?? []).forEach((pair, index) => {
    const separator = pair.indexOf('=');
    qb.andWhere(`${c}.details ->> :detailKey${index} = :detailValue${index}`, {
      [`detailKey${index}`]: pair.slice(0, separator),
      [`detailValue${index}`]: pair.slice(separator + 1),
    });
  });
  return qb;
}

/*
 * Fragments for other modules' statements that must read contacts in the same round trip (the
 * widget's reads, the changelog's after-reading groups); ContactsService re-exports them. The
 * `…Sql` arguments are SQL expressions (placeholders or columns) of the composing statement.
 */

/**
 * Fragment: EXISTS a contact of the project with this user id for whom `holds(details, consents)`
 * is true, given the SQL of the contact's `details` and `consents` columns.
 */
export function contactOfUserExists(projectIdSql: string, userIdSql: string, holds: (details: string, consents: string) => string): string {
  return `EXISTS (
      SELECT 1 FROM contacts rc WHERE rc.project_id = ${projectIdSql} AND rc.user_id = ${userIdSql}::varchar
        AND ${holds('rc.details', 'rc.consents')})`;
}

/** Fragment: a sub-select of the user ids of the project's contacts created before `beforeSql`. */
export function contactUserIdsCreatedBefore(projectIdSql: string, beforeSql: string): string {
  return `SELECT user_id FROM contacts WHERE project_id = ${projectIdSql} AND user_id IS NOT NULL AND created_at < ${beforeSql}`;
}
