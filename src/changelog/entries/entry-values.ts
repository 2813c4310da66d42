import type { ChangelogEntryEntity } from '../entities/changelog-entry.entity';
import type { EntryValues } from './entry-fields';

/** An entry row's owner-settable values (labels come from their own table). */
export function valuesOfEntry(row: ChangelogEntryEntity, labels: string[]): EntryValues {
  return {
    title: row.title,
    bodyMarkdown: row.bodyMarkdown,
    version: row.version,
    category: row.category,
    scheduledAt: row.scheduledAt,
    coverImageUrl: row.coverImageUrl,
    ctaLabel: row.ctaLabel,
    ctaUrl: row.ctaUrl,
    labels,
    audience: row.audience,
    segment: row.segment,
    pinned: row.pinned,
    expiresAt: row.expiresAt,
    announcement: row.announcementStyle && row.announcementUntil ? { style: row.announcementStyle, until: row.announcementUntil } : null,
    notifySubscribers: row.notifySubscribers,
    notifyInApp: row.notifyInApp,
    notifyChat: row.notifyChat,
  };
}

/** Writes `values` onto the row (not the labels, which live in their own table). */
export function assignValues(row: ChangelogEntryEntity, values: EntryValues): void {
  Object.assign(row, {
    title: values.title,
    bodyMarkdown: values.bodyMarkdown,
    version: values.version,
    category: values.category,
    scheduledAt: values.scheduledAt,
    coverImageUrl: values.coverImageUrl,
    ctaLabel: values.ctaLabel,
    ctaUrl: values.ctaUrl,
    audience: values.audience,
    segment: values.segment,
    pinned: values.pinned,
    expiresAt: values.expiresAt,
    announcementStyle: values.announcement?.style ?? null,
    announcementUntil: values.announcement?.until ?? null,
    notifySubscribers: values.notifySubscribers,
    notifyInApp: values.notifyInApp,
    notifyChat: values.notifyChat,
  });
}

/** The columns an update writes (the whole row but its id, project and creation time). */
export function entryColumns(row: ChangelogEntryEntity): Partial<ChangelogEntryEntity> {
  const { id: _id, projectId: _projectId, createdAt: _createdAt, project: _project, ...columns } = row;
  return columns;
}
