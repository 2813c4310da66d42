import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type ReactionName, reactionSetOf } from '../shared/reaction-set';

/**
 * The project's changelog reaction set (spec: Reaction set), for other features: notifications
 * offer the same reactions (`reactions: true`). A plain class with one query, so a module can
 * provide it without importing ChangelogModule (no cycle when the changelog sends to the bell).
 * Read fresh: the project on a request comes from the key cache and may be seconds old.
 */
@Injectable()
export class ChangelogReactionSet {
  async read(em: EntityManager, projectId: string): Promise<ReactionName[]> {
    const [row]: { reaction_set: ReactionName[] | null }[] = await em.query(
      "SELECT settings -> 'changelog_reaction_set' AS reaction_set FROM projects WHERE id = $1",
      [projectId],
    );
    return reactionSetOf({ changelog_reaction_set: row?.reaction_set ?? undefined });
  }
}
