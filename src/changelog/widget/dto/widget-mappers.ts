import type { ReactionName } from '../../shared/reaction-set';
import type { WidgetEntryRow } from '../widget.queries';
import type { WidgetAnnouncementDto, WidgetEntryDto } from './widget.dto';

export interface EntryPresentation {
  /** The hosted page of a public-audience entry. */
  publicUrl: (entryId: string) => string;
  bodyHtml: (row: WidgetEntryRow) => string;
  /** The project's reaction set: counts of names outside it are not shown. */
  reactionSet: readonly ReactionName[];
  /** Reads this process holds but has not written yet: they count as seen already. */
  pendingRead: (entryId: string) => boolean;
}

export function toWidgetEntryDto(row: WidgetEntryRow, show: EntryPresentation): WidgetEntryDto {
  const reactions: Partial<Record<ReactionName, number>> = {};
  for (const name of show.reactionSet) {
    const count = row.reactionCounts[name];
    if (count) reactions[name] = count;
  }
  return {
    id: row.id,
    title: row.title,
    body_markdown: row.bodyMarkdown,
    body_html: show.bodyHtml(row),
    version: row.version,
    category: row.category,
    published_at: row.publishedAt.toISOString(),
    public_url: row.audience === 'public' ? show.publicUrl(row.id) : null,
    pinned: row.pinned,
    labels: row.labels,
    cover_image_url: row.coverImageUrl,
    cta: row.ctaLabel !== null && row.ctaUrl !== null ? { label: row.ctaLabel, url: row.ctaUrl } : null,
    reactions,
    my_reaction: row.myReaction !== null && show.reactionSet.includes(row.myReaction) ? row.myReaction : null,
    seen: row.seen === null ? null : row.seen || show.pendingRead(row.id),
  };
}

/** The once key names the entry: re-saving the announcement does not show it again to a browser that stored it. */
export function toWidgetAnnouncementDto(row: WidgetEntryRow, show: EntryPresentation): WidgetAnnouncementDto | null {
  if (row.announcementStyle === null) return null;
  return {
    entry: toWidgetEntryDto(row, show),
    style: row.announcementStyle,
    until: row.announcementUntil ? row.announcementUntil.toISOString() : null,
    once_key: `ann_${row.id}`,
  };
}
