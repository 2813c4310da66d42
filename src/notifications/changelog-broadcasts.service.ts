import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { newId } from '../common/ids/ids';
import { BellStateCache } from './bell/bell-state.cache';
import { countBellUsers } from './bell/bell.queries';
import { markdownExcerpt } from '../common/markdown/markdown-render';

/** The excerpt of the entry's body shown in the bell: a few lines, not the post. */
export const CHANGELOG_BELL_EXCERPT_LENGTH = 280;
export const CHANGELOG_BELL_CATEGORY = 'changelog';

/** What the bell needs of a published changelog entry. */
export interface PublishedEntryForBell {
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
  ) {}

  /** Inserts the entry's broadcast in `em`'s transaction unless it has one already. */
  async broadcastEntry(em: EntityManager, entry: PublishedEntryForBell): Promise<void> {
    if (entry.audience === 'segment') return;
    const body = markdownExcerpt(entry.bodyMarkdown, CHANGELOG_BELL_EXCERPT_LENGTH);
    await em.query(
      `INSERT INTO notifications
         (id, project_id, kind, user_id, title, body, action_url, icon, category, actions, data, reactions, pinned,
          status, visible_at, recipient_count, usage_month, changelog_entry_id, created_at)
       VALUES ($1, $2, 'broadcast', NULL, $3, $4, $5, 'info', $6, '[]'::jsonb, $7::jsonb, NULL, false,
               'visible', $8, 0, NULL, $9, $10)
       ON CONFLICT (changelog_entry_id) WHERE changelog_entry_id IS NOT NULL DO NOTHING`,
      [
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
      ],
    );
    await this.bells.announceProject(em, entry.projectId);
  }

  /** How many people's bells a changelog broadcast would reach now (those whose bell has asked). */
  reachableBellUsers(em: EntityManager, projectId: string): Promise<number> {
    return countBellUsers(em, projectId);
  }

  /** The `notify_in_app` of a new entry that does not say, read in `em`'s transaction (default false). */
  async notifyInAppDefault(em: EntityManager, projectId: string): Promise<boolean> {
    const rows: { value: boolean }[] = await em.query(
      "SELECT coalesce(settings ->> 'changelog_to_bell_default' = 'true', false) AS value FROM projects WHERE id = $1",
      [projectId],
    );
    return rows[0]?.value === true;
  }
}
