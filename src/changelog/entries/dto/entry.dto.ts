import { ApiProperty } from '@nestjs/swagger';
import {
  ANNOUNCEMENT_STYLES,
  type AnnouncementStyle,
  ENTRY_AUDIENCES,
  ENTRY_CATEGORIES,
  ENTRY_STATUSES,
  type EntryAudience,
  type EntryCategory,
  type EntryStatus,
} from '../../entities/changelog-entry.entity';
import type { ChangelogEntryEntity } from '../../entities/changelog-entry.entity';
import type { SegmentRule } from '../../shared/segment-rule';
import { SEGMENT_SCHEMA } from './entry-fields-input.dto';

/** The owner view of an entry (spec: Changelog entry (owner view)): exactly these 12 fields. */
export class EntryDto {
  @ApiProperty({ example: 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^ce_[0-9A-HJKMNP-TV-Z]{26}$' })
  id: string;

  @ApiProperty({ example: 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^prj_[0-9A-HJKMNP-TV-Z]{26}$' })
  project_id: string;

  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Export to PDF' })
  title: string;

  @ApiProperty({ minLength: 1, maxLength: 50000, example: 'You can now **export** any report as PDF.' })
  body_markdown: string;

  @ApiProperty({ type: String, nullable: true, example: '2.4.0' })
  version: string | null;

  @ApiProperty({ enum: ENTRY_CATEGORIES, example: 'feature' })
  category: EntryCategory;

  @ApiProperty({ enum: ENTRY_STATUSES, example: 'published' })
  status: EntryStatus;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', example: null })
  scheduled_at: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', example: '2026-11-20T10:00:00.000Z' })
  published_at: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z' })
  created_at: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z' })
  updated_at: string;

  @ApiProperty({
    format: 'uri',
    example: 'https://launch.example.com/changelog/acme/ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
    description: "The entry's page on the hosted changelog; it opens for other people only for a published, public-audience entry.",
  })
  public_url: string;
}

export class AnnouncementDto {
  @ApiProperty({ enum: ANNOUNCEMENT_STYLES, example: 'banner' })
  style: AnnouncementStyle;

  @ApiProperty({ format: 'date-time', example: '2026-12-01T00:00:00.000Z' })
  until: string;
}

/**
 * The accepted-but-not-shown fields of an entry (spec: "not shown" in read responses), returned in
 * `meta.entry_options` of single-entry answers so a dashboard can read back what it set.
 */
export class EntryOptionsDto {
  @ApiProperty({ type: [String], example: ['export'], description: 'Label slugs, alphabetically.' })
  labels: string[];

  @ApiProperty({ enum: ENTRY_AUDIENCES, example: 'public' })
  audience: EntryAudience;

  @ApiProperty(SEGMENT_SCHEMA as object)
  segment: SegmentRule | null;

  @ApiProperty({ example: false })
  pinned: boolean;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', example: null })
  expires_at: string | null;

  @ApiProperty({
    type: 'object',
    nullable: true,
    required: ['style', 'until'],
    properties: { style: { type: 'string', enum: [...ANNOUNCEMENT_STYLES] }, until: { type: 'string', format: 'date-time' } },
    example: { style: 'banner', until: '2026-12-01T00:00:00.000Z' },
    // Inline rather than a $ref: OpenAPI 3.0 cannot mark a referenced schema nullable.
    description: 'Null when none, or once another entry took over or the entry was archived.',
  } as object)
  announcement: AnnouncementDto | null;

  @ApiProperty({ type: String, nullable: true, example: 'https://cdn.example.com/export.png' })
  cover_image_url: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Try the export' })
  cta_label: string | null;

  @ApiProperty({ type: String, nullable: true, example: '/settings/export' })
  cta_url: string | null;

  @ApiProperty({ example: false })
  notify_subscribers: boolean;

  @ApiProperty({ example: false })
  notify_in_app: boolean;

  @ApiProperty({ example: true })
  notify_chat: boolean;
}

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

export function toEntryDto(row: ChangelogEntryEntity, publicUrl: string): EntryDto {
  return {
    id: row.id,
    project_id: row.projectId,
    title: row.title,
    body_markdown: row.bodyMarkdown,
    version: row.version,
    category: row.category,
    status: row.status,
    scheduled_at: iso(row.scheduledAt),
    published_at: iso(row.publishedAt),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    public_url: publicUrl,
  };
}

export function toEntryOptionsDto(row: ChangelogEntryEntity, labels: string[]): EntryOptionsDto {
  return {
    labels,
    audience: row.audience,
    segment: row.segment,
    pinned: row.pinned,
    expires_at: iso(row.expiresAt),
    announcement:
      row.announcementStyle && row.announcementUntil ? { style: row.announcementStyle, until: row.announcementUntil.toISOString() } : null,
    cover_image_url: row.coverImageUrl,
    cta_label: row.ctaLabel,
    cta_url: row.ctaUrl,
    notify_subscribers: row.notifySubscribers,
    notify_in_app: row.notifyInApp,
    notify_chat: row.notifyChat,
  };
}
