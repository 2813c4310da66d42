import type { EntityManager } from 'typeorm';
import { ChangelogEntryEntity } from '../entities/changelog-entry.entity';
import { ChangelogEntryLabelEntity } from '../entities/changelog-entry-label.entity';

/** Entries that hold a place under the Free cap: published and scheduled (drafts and archived do not). */
export async function countReservedEntries(em: EntityManager, projectId: string): Promise<number> {
  const [row]: { count: string }[] = await em.query(
    "SELECT COUNT(*) AS count FROM changelog_entries WHERE project_id = $1 AND status IN ('published', 'scheduled')",
    [projectId],
  );
  return Number(row.count);
}

export function findEntryForUpdate(em: EntityManager, projectId: string, entryId: string): Promise<ChangelogEntryEntity | null> {
  return em.findOne(ChangelogEntryEntity, { where: { projectId, id: entryId }, lock: { mode: 'pessimistic_write' } });
}

/** The slugs of an entry's labels, alphabetically. */
export async function labelSlugsOf(em: EntityManager, entryId: string): Promise<string[]> {
  const rows: { slug: string }[] = await em.query(
    `SELECT l.slug FROM changelog_entry_labels el JOIN changelog_labels l ON l.id = el.label_id
     WHERE el.entry_id = $1 ORDER BY l.slug`,
    [entryId],
  );
  return rows.map((row) => row.slug);
}

/** Replaces an entry's labels with `labelIds`. */
export async function replaceEntryLabels(em: EntityManager, entryId: string, labelIds: readonly string[]): Promise<void> {
  await em.delete(ChangelogEntryLabelEntity, { entryId });
  if (labelIds.length > 0)
    await em.insert(
      ChangelogEntryLabelEntity,
      labelIds.map((labelId) => ({ entryId, labelId })),
    );
}

/**
 * Ends the project's current announcement, unless it is on `keepEntryId`; returns the entry it was
 * on (spec: one announced entry per project; `meta.announcement_replaced_entry_id`).
 */
export async function endOtherAnnouncement(em: EntityManager, projectId: string, keepEntryId: string | null): Promise<string | null> {
  const [rows]: [{ id: string }[], number] = await em.query(
    `UPDATE changelog_entries SET announcement_style = NULL, announcement_until = NULL
     WHERE project_id = $1 AND announcement_style IS NOT NULL AND id IS DISTINCT FROM $2 RETURNING id`,
    [projectId, keepEntryId],
  );
  return rows[0]?.id ?? null;
}

/**
 * Whether `entryId` is a published entry of the project (feedback's ChangelogEntryCheck). Any
 * audience, expired or not: feedback about an entry someone read stays linked to it.
 */
export async function isPublishedEntry(em: EntityManager, projectId: string, entryId: string): Promise<boolean> {
  const rows: unknown[] = await em.query("SELECT 1 FROM changelog_entries WHERE id = $1 AND project_id = $2 AND status = 'published'", [
    entryId,
    projectId,
  ]);
  return rows.length > 0;
}

/** Whether a changelog entry asked for chat posts; true when the row is not found (never skip by accident). */
export async function entryNotifiesChat(em: EntityManager, entryId: unknown): Promise<boolean> {
  if (typeof entryId !== 'string') return true;
  const rows: { notify_chat: boolean }[] = await em.query('SELECT notify_chat FROM changelog_entries WHERE id = $1', [entryId]);
  return rows[0]?.notify_chat ?? true;
}

/** Query-builder condition on entries `e`: the entry carries the project's label with slug `:label`. */
export const ENTRY_HAS_LABEL = `EXISTS (SELECT 1 FROM changelog_entry_labels el JOIN changelog_labels l ON l.id = el.label_id
                 WHERE el.entry_id = e.id AND l.project_id = e.project_id AND l.slug = :label)`;
