import type { EntityManager } from 'typeorm';
import { type PersonToErase, isPersonValue, jsonTokensOf, someStringValue, withoutPerson } from '../infra/erasure/person-match';
import { EventEntity } from './entities/event.entity';

/**
 * One event row. Plain SQL: TypeORM's `em.insert` spends a few hundred µs of CPU building the
 * same statement, and every signup and feedback writes an event.
 */
export async function insertEvent(
  em: EntityManager,
  event: Pick<EventEntity, 'id' | 'projectId' | 'type' | 'data' | 'createdAt'>,
): Promise<void> {
  await em.query('INSERT INTO events (id, project_id, type, data, created_at) VALUES ($1, $2, $3, $4, $5)', [
    event.id,
    event.projectId,
    event.type,
    JSON.stringify(event.data),
    event.createdAt,
  ]);
}

/** The project's event by id; null when there is none. */
export function findEvent(em: EntityManager, projectId: string, eventId: string): Promise<EventEntity | null> {
  return em.findOne(EventEntity, { where: { id: eventId, projectId } });
}

/** The project's events among `eventIds` (one query), in no set order; ids with no event are left out. */
export function findEvents(em: EntityManager, projectId: string, eventIds: readonly string[]): Promise<EventEntity[]> {
  return em
    .createQueryBuilder(EventEntity, 'e')
    .where('e.project_id = :projectId AND e.id IN (:...ids)', { projectId, ids: eventIds })
    .getMany();
}

/**
 * Erasure: nulls every string value of the project's event payloads that is the person's email or
 * a user id (`email`, `user_id`, an invite wave's `invited[].email`, values in `metadata`). The
 * event stays, with every field, so delivery logs keep their rows and a redelivery (retry,
 * recover), built from the event at send time, carries null where the person was.
 *
 * A text search for the identifiers as JSON string tokens picks the candidates; only those are
 * parsed and rewritten. The cost is one pass over the project's events (ix_events_project_created).
 */
export async function nullPersonInEvents(em: EntityManager, person: PersonToErase): Promise<number> {
  const tokens = jsonTokensOf(person);
  if (tokens.lowerCased.length + tokens.exact.length === 0) return 0;
  const candidates: { id: string; data: Record<string, unknown> }[] = await em.query(
    `SELECT id, data FROM events
      WHERE project_id = $1
        AND (EXISTS (SELECT 1 FROM unnest($2::text[]) AS t(token) WHERE strpos(lower(data::text), t.token) > 0)
          OR EXISTS (SELECT 1 FROM unnest($3::text[]) AS t(token) WHERE strpos(data::text, t.token) > 0))
      FOR UPDATE`,
    [person.projectId, tokens.lowerCased, tokens.exact],
  );
  const rewritten = candidates
    .filter((event) => someStringValue(event.data, (value) => isPersonValue(value, person)))
    .map((event) => ({ id: event.id, data: withoutPerson(event.data, person) }));
  if (rewritten.length === 0) return 0;
  const [, updated] = (await em.query(
    `UPDATE events e SET data = blanked.data FROM jsonb_to_recordset($2::jsonb) AS blanked(id text, data jsonb)
      WHERE e.project_id = $1 AND e.id = blanked.id`,
    [person.projectId, JSON.stringify(rewritten)],
  )) as [unknown, number];
  return updated;
}
