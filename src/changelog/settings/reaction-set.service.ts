import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ProjectSettingsService } from '../../projects/project-settings.service';
import { type ReactionName, reactionSetOf } from '../shared/reaction-set';

/**
 * The project's changelog reaction set (spec: Reaction set), for other features: notifications
 * offer the same reactions (`reactions: true`). A plain class over the project's settings, so a
 * module can provide it without importing ChangelogModule (no cycle when the changelog sends to the bell).
 * Read fresh: the project on a request comes from the key cache and may be seconds old.
 */
@Injectable()
export class ChangelogReactionSet {
  constructor(private readonly projectSettings: ProjectSettingsService) {}

  async read(em: EntityManager, projectId: string): Promise<ReactionName[]> {
    const stored = (await this.projectSettings.read(em, projectId)).changelog_reaction_set as ReactionName[] | null | undefined;
    return reactionSetOf({ changelog_reaction_set: stored ?? undefined });
  }
}
