import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';
import type { SegmentRule } from '../shared/segment-rule';

export const ENTRY_STATUSES = ['draft', 'published', 'scheduled', 'archived'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

export const ENTRY_CATEGORIES = ['feature', 'fix', 'improvement', 'security', 'breaking'] as const;
export type EntryCategory = (typeof ENTRY_CATEGORIES)[number];

export const ENTRY_AUDIENCES = ['public', 'signed_in', 'segment'] as const;
export type EntryAudience = (typeof ENTRY_AUDIENCES)[number];

export const ANNOUNCEMENT_STYLES = ['modal', 'banner', 'toast'] as const;
export type AnnouncementStyle = (typeof ANNOUNCEMENT_STYLES)[number];

/** The partial index behind every public surface (JSON, page, feeds, publishable list). */
const IX_ENTRIES_PUBLIC = 'ix_changelog_entries_public';

/**
 * One changelog entry (spec: Changelog entry, states and transitions). Labels live in
 * changelog_entry_labels. `published_at` is set once, when the entry first goes live, and is never
 * cleared: it is what makes "once per entry" side effects (event, bell, emails) once.
 */
@Entity({ name: 'changelog_entries' })
@Index('ix_changelog_entries_project_id', ['projectId', 'id'])
@Index(IX_ENTRIES_PUBLIC, ['projectId', 'pinned', 'publishedAt', 'id'], { where: `status = 'published' AND audience = 'public'` })
// One announcement per project at a time (spec: Announcement); the service ends the previous one first.
@Index('uq_changelog_entries_announcement', ['projectId'], { unique: true, where: 'announcement_style IS NOT NULL' })
export class ChangelogEntryEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_changelog_entries_project' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'text' })
  bodyMarkdown: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  version: string | null;

  @Column({ type: 'varchar', length: 16 })
  category: EntryCategory;

  @Column({ type: 'varchar', length: 16 })
  status: EntryStatus;

  /** The status an archived entry returns to when unarchived. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  statusBeforeArchive: EntryStatus | null;

  @Column({ type: 'timestamptz', nullable: true })
  scheduledAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  publishedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  archivedAt: Date | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  coverImageUrl: string | null;

  @Column({ type: 'varchar', length: 80, nullable: true })
  ctaLabel: string | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  ctaUrl: string | null;

  @Column({ type: 'varchar', length: 16, default: 'public' })
  audience: EntryAudience;

  /** The rule object of a `segment` audience, else null. */
  @Column({ type: 'jsonb', nullable: true })
  segment: SegmentRule | null;

  @Column({ type: 'boolean', default: false })
  pinned: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  announcementStyle: AnnouncementStyle | null;

  @Column({ type: 'timestamptz', nullable: true })
  announcementUntil: Date | null;

  @Column({ type: 'boolean', default: false })
  notifySubscribers: boolean;

  @Column({ type: 'boolean', default: false })
  notifyInApp: boolean;

  @Column({ type: 'boolean', default: true })
  notifyChat: boolean;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
