import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { newId } from '../common/ids/ids';
import { BellStateCache } from './bell/bell-state.cache';
import { countBellUsers } from './bell/bell.queries';
// The fragment the changelog's after-reading groups compose into their statement (see bell.queries.ts).
export { bellUserIdsSeenBefore } from './bell/bell.queries';
import { markdownExcerpt } from '../common/markdown/markdown-render';
import { ProjectSettingsService } from '../projects/project-settings.service';
import { insertChangelogBroadcast } from './sending/sending.queries';

/** The excerpt of the entry's body shown in the bell: a few lines, not the post. */
const CHANGELOG_BELL_EXCERPT_LENGTH = 280;
const CHANGELOG_BELL_CATEGORY = 'changelog';

/** What the bell needs of a published changelog entry. */
interface PublishedEntryForBell {
  projectId: string;
  entryId: string;
  title: string;
  bodyMarkdown: string;
  audience: 'public' | 'signed_in' | 'segment';
  /** The entry's public page; linked only for public entries. */
  publicUrl: string;
  publishedAt: Date;
}

/**
 * Changelog to bell (issue 10 item 8; spec: Notification settings `changelog_to_bell_default`). The
 * changelog calls this inside its publishing transaction; it depends on nothing of the changelog.
 *
 * Choices the spec leaves open:
 * - One broadcast per entry, however often it is saved, published, archived and unarchived: the
 *   unique index on `changelog_entry_id` decides (INSERT … ON CONFLICT DO NOTHING). Deleting that
 *   broadcast does not bring it back on a later save.
 * - Never for segment entries (the bell cannot evaluate a segment for a browser's user id); for
 *   signed-in entries the broadcast carries no link (the public page would not show them).
 * - Title = the entry's title; body = a plain-text excerpt of its markdown (280 characters);
 *   category `changelog`; icon `info`; `data.changelog_entry_id` names the entry; not pinned, no
 *   reactions (the entry's own reactions live on the changelog).
 * - It does not count toward the monthly notification quota (`usage_month` null): publishing a
 *   changelog entry must never fail, or silently skip the bell, because the month is used up.
 */
@Injectable()
export class ChangelogBroadcasts {
  constructor(
    private readonly clock: Clock,
    private readonly bells: BellStateCache,
    private readonly projectSettings: ProjectSettingsService,
  ) {}

  /** Inserts the entry's broadcast in `em`'s transaction unless it has one already. */
  async broadcastEntry(em: EntityManager, entry: PublishedEntryForBell): Promise<void> {
    if (entry.audience === 'segment') return;
    const body = markdownExcerpt(entry.bodyMarkdown, CHANGELOG_BELL_EXCERPT_LENGTH);
    await insertChangelogBroadcast(em, [
      newId('ntf'),
      entry.projectId,
      entry.title,
      body,
      entry.audience === 'public' ? entry.publicUrl : null,
      CHANGELOG_BELL_CATEGORY,
      JSON.stringify({ changelog_entry_id: entry.entryId }),
      entry.publishedAt,
      entry.entryId,
      this.clock.now(),
    ]);
    await this.bells.announceProject(em, entry.projectId);
  }

  /** How many people's bells a changelog broadcast would reach now (those whose bell has asked). */
  reachableBellUsers(em: EntityManager, projectId: string): Promise<number> {
    return countBellUsers(em, projectId);
  }

  /** The `notify_in_app` of a new entry that does not say, read in `em`'s transaction (default false). */
  async notifyInAppDefault(em: EntityManager, projectId: string): Promise<boolean> {
    return (await this.projectSettings.read(em, projectId)).changelog_to_bell_default === true;
  }
}
