import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** Reads a project's reaction set inside the caller's transaction. */
type ReactionSetReader = (em: EntityManager, projectId: string) => Promise<readonly string[]>;

/**
 * The reactions a notification may offer (`reactions`): the project's changelog reaction set, a
 * setting the changelog owns. The changelog hands in its reader at start (ChangelogReactionSet),
 * so notifications/ imports nothing of the changelog.
 */
@Injectable()
export class NotificationReactionSets {
  private reader: ReactionSetReader | null = null;

  readWith(reader: ReactionSetReader): void {
    this.reader = reader;
  }

  read(em: EntityManager, projectId: string): Promise<readonly string[]> {
    // Registered by the changelog module at start; missing only when the app is wired wrong.
    if (!this.reader) throw new Error('No reaction set reader: ChangelogModule registers one at start');
    return this.reader(em, projectId);
  }
}
