import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { NotificationEntity } from './notification.entity';

/**
 * What one person did with one notification, written on their first touch (read, click, archive,
 * reaction). Until then nothing is stored per person, so a broadcast to a million people is one
 * row, and a notification with no receipt is unread.
 */
@Entity({ name: 'notification_receipts' })
@Index('ix_notification_receipts_user', ['projectId', 'userId'])
export class NotificationReceiptEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  notificationId: string;

  @PrimaryColumn({ type: 'varchar', length: 256 })
  userId: string;

  @ManyToOne(() => NotificationEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'notification_id', foreignKeyConstraintName: 'fk_notification_receipts_notification' })
  notification?: NotificationEntity;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  /** A click or an archive also marks it read. */
  @Column({ type: 'timestamptz', nullable: true })
  readAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  clickedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  archivedAt: Date | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  reaction: string | null;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
