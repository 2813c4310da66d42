import type { EntityManager } from 'typeorm';
import { newId } from '../../common/ids/ids';
import { ChangelogEntryEntity, type EntryCategory } from '../entities/changelog-entry.entity';

export interface DraftEntryInput {
  title: string;
  bodyMarkdown: string;
  version: string | null;
  category: EntryCategory;
}

/**
 * Stores a changelog entry with status `draft` and every other field at its create default
 * (public audience, not pinned, no schedule, no announcement, no notifications except chat, which
 * defaults on as on any entry). Nothing else happens: a draft is not public, emailed or posted, and
 * does not count toward the Free entry cap. Kept to this one function so the draft call can move
 * onto the entries service's own insert unchanged.
 */
export async function insertDraftEntry(
  em: EntityManager,
  projectId: string,
  input: DraftEntryInput,
  now: Date,
): Promise<ChangelogEntryEntity> {
  const row = Object.assign(new ChangelogEntryEntity(), {
    id: newId('ce'),
    projectId,
    title: input.title,
    bodyMarkdown: input.bodyMarkdown,
    version: input.version,
    category: input.category,
    status: 'draft',
    statusBeforeArchive: null,
    scheduledAt: null,
    publishedAt: null,
    archivedAt: null,
    coverImageUrl: null,
    ctaLabel: null,
    ctaUrl: null,
    audience: 'public',
    segment: null,
    pinned: false,
    expiresAt: null,
    announcementStyle: null,
    announcementUntil: null,
    notifySubscribers: false,
    notifyInApp: false,
    notifyChat: true,
    createdAt: now,
    updatedAt: now,
  } satisfies ChangelogEntryEntity);
  await em.insert(ChangelogEntryEntity, row);
  return row;
}
