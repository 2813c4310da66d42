import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NotificationReactionSets } from '../../notifications/reaction-sets.service';
import { ProjectSettingsService } from '../../projects/project-settings.service';
import { type ReactionName, reactionSetOf } from '../shared/reaction-set';

/**
 * The project's changelog reaction set (spec: Reaction set). Notifications offer the same
 * reactions (`reactions: true`): this class hands its reader to NotificationReactionSets at start,
 * so notifications/ imports nothing of the changelog. Read fresh: the project on a request comes
 * from the key cache and may be seconds old.
 */
@Injectable()
export class ChangelogReactionSet {
  constructor(
    private readonly projectSettings: ProjectSettingsService,
    notifications: NotificationReactionSets,
  ) {
    notifications.readWith((em, projectId) => this.read(em, projectId));
  }

  async read(em: EntityManager, projectId: string): Promise<ReactionName[]> {
    const stored = (await this.projectSettings.read(em, projectId)).changelog_reaction_set as ReactionName[] | null | undefined;
    return reactionSetOf({ changelog_reaction_set: stored ?? undefined });
  }
}
