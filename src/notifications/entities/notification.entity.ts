import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

/** user: one person; group: the people in notification_recipients; broadcast: everyone (audience `all`). */
export type NotificationKind = 'user' | 'group' | 'broadcast';
/** scheduled: `send_at` is ahead, hidden from every bell; visible: showing. A deleted notification has no row. */
export type NotificationStatus = 'scheduled' | 'visible';
export const NOTIFICATION_ICONS = ['check', 'warning', 'info', 'error'] as const;
export type NotificationIcon = (typeof NOTIFICATION_ICONS)[number];

export interface NotificationAction {
  label: string;
  url: string;
}

/** Broadcasts of a project by the time they show: the broadcast half of every bell read. */
export const IX_NOTIFICATIONS_BROADCASTS = 'ix_notifications_broadcasts';

/**
 * One notification, whoever it goes to: a broadcast is this one row and nothing per person; a
 * user or group send lists its people once in notification_recipients. What a person did with it
 * (read, clicked, archived, reacted) is a notification_receipts row written on their first touch.
 */
@Entity({ name: 'notifications' })
@Index('ix_notifications_project_id', ['projectId', 'id'])
@Index(IX_NOTIFICATIONS_BROADCASTS, ['projectId', 'visibleAt', 'id'], { where: `kind = 'broadcast'` })
// Retention deletes by showing time across every project (retention/notification-retention.queries.ts).
@Index('ix_notifications_visible_at', ['visibleAt'])
@Index('uq_notifications_changelog_entry', ['changelogEntryId'], { unique: true, where: 'changelog_entry_id IS NOT NULL' })
export class NotificationEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_notifications_project' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 16 })
  kind: NotificationKind;

  /** The person of a `user` send (also in notification_recipients); null for groups and broadcasts. */
  @Column({ type: 'varchar', length: 256, nullable: true })
  userId: string | null;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'varchar', length: 2000 })
  body: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  actionUrl: string | null;

  @Column({ type: 'varchar', length: 8 })
  icon: NotificationIcon;

  @Column({ type: 'varchar', length: 64, nullable: true })
  category: string | null;

  @Column({ type: 'jsonb', default: [] })
  actions: NotificationAction[];

  @Column({ type: 'jsonb', nullable: true })
  data: Record<string, unknown> | null;

  /** The reaction names people may use, in order; null when it takes no reactions. */
  @Column({ type: 'jsonb', nullable: true })
  reactions: string[] | null;

  @Column({ type: 'boolean', default: false })
  pinned: boolean;

  @Column({ type: 'varchar', length: 16 })
  status: NotificationStatus;

  /** When it shows: `send_at`, or the time of sending. Bells show only what is visible by now. */
  @Column({ type: 'timestamptz' })
  visibleAt: Date;

  /** People asked for: 1 for a user send, the group's size, 0 for a broadcast. */
  @Column({ type: 'int', default: 0 })
  recipientCount: number;

  /** The UTC month ("2026-11") whose quota it counted in; null when it counted in none. */
  @Column({ type: 'char', length: 7, nullable: true })
  usageMonth: string | null;

  /** Set on the one broadcast a published changelog entry makes. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  changelogEntryId: string | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
