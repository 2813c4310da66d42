import type { EntityManager } from 'typeorm';
import { type ErasedRecords, erasedRowsOf } from '../../infra/erasure/erasure-registry.service';
import type { PersonToErase } from '../../infra/erasure/person-match';
import type { ReactionName } from '../shared/reaction-set';

/** The person's reaction to the entry, row-locked until the transaction ends; null when they hold none. */
export async function lockReaction(em: EntityManager, entryId: string, reactor: string): Promise<ReactionName | null> {
  const rows: { reaction: ReactionName }[] = await em.query(
    'SELECT reaction FROM changelog_reactions WHERE entry_id = $1 AND reactor = $2 FOR UPDATE',
    [entryId, reactor],
  );
  return rows[0]?.reaction ?? null;
}

/** Inserts the person's first reaction; false when a concurrent request inserted theirs first. */
export async function insertReaction(
  em: EntityManager,
  row: { projectId: string; entryId: string; reactor: string; reaction: ReactionName; at: Date },
): Promise<boolean> {
  const inserted: unknown[] = await em.query(
    `INSERT INTO changelog_reactions (entry_id, reactor, project_id, reaction, reacted_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (entry_id, reactor) DO NOTHING RETURNING 1`,
    [row.entryId, row.reactor, row.projectId, row.reaction, row.at],
  );
  return inserted.length === 1;
}

export async function replaceReaction(
  em: EntityManager,
  entryId: string,
  reactor: string,
  reaction: ReactionName,
  at: Date,
): Promise<void> {
  await em.query('UPDATE changelog_reactions SET reaction = $3, reacted_at = $4 WHERE entry_id = $1 AND reactor = $2', [
    entryId,
    reactor,
    reaction,
    at,
  ]);
}

export async function deleteReaction(em: EntityManager, entryId: string, reactor: string): Promise<void> {
  await em.query('DELETE FROM changelog_reactions WHERE entry_id = $1 AND reactor = $2', [entryId, reactor]);
}

/** Moves one person between reaction counts: `from` loses one, `to` gains one (either may be null). */
export async function moveReactionCount(
  em: EntityManager,
  entryId: string,
  from: ReactionName | null,
  to: ReactionName | null,
): Promise<void> {
  if (from !== null) {
    await em.query('UPDATE changelog_reaction_counts SET count = count - 1 WHERE entry_id = $1 AND reaction = $2', [entryId, from]);
  }
  if (to !== null) {
    await em.query(
      `INSERT INTO changelog_reaction_counts (entry_id, reaction, count) VALUES ($1, $2, 1)
       ON CONFLICT (entry_id, reaction) DO UPDATE SET count = changelog_reaction_counts.count + 1`,
      [entryId, to],
    );
  }
}

/** The entry's reaction counts (people per reaction, held by at least one). */
export async function readReactionCounts(em: EntityManager, entryId: string): Promise<Partial<Record<ReactionName, number>>> {
  const rows: { reaction: ReactionName; count: number }[] = await em.query(
    'SELECT reaction, count FROM changelog_reaction_counts WHERE entry_id = $1 AND count > 0',
    [entryId],
  );
  return Object.fromEntries(rows.map((row) => [row.reaction, row.count]));
}

/** Erasure (infra/erasure): the entries the person's user id was shown in the widget. */
export async function deleteReadsOfPerson(em: EntityManager, person: PersonToErase): Promise<ErasedRecords> {
  let count = 0;
  for (const userId of person.userIds) {
    count += erasedRowsOf(
      await em.query('DELETE FROM changelog_readers WHERE project_id = $1 AND user_id = $2', [person.projectId, userId]),
    ).count;
  }
  return { count, recordIds: [] };
}

/**
 * Erasure (infra/erasure): the person's reactions, and what they added to the counts, so totals
 * stay the number of people holding one.
 */
export async function deleteReactionsOfPerson(em: EntityManager, person: PersonToErase): Promise<ErasedRecords> {
  let count = 0;
  for (const userId of person.userIds) {
    const erased = erasedRowsOf(
      await em.query(
        `WITH gone AS (DELETE FROM changelog_reactions WHERE project_id = $1 AND reactor = 'u:' || $2::text RETURNING entry_id, reaction),
     counted AS (UPDATE changelog_reaction_counts c SET count = c.count - g.n
       FROM (SELECT entry_id, reaction, count(*)::int AS n FROM gone GROUP BY 1, 2) g
       WHERE c.entry_id = g.entry_id AND c.reaction = g.reaction RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
        [person.projectId, userId],
      ),
    );
    count += erased.count;
  }
  return { count, recordIds: [] };
}
