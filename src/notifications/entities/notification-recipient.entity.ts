import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { NotificationEntity } from './notification.entity';

/** A person's targeted notifications, newest first: the targeted half of every bell read. */
export const IX_RECIPIENTS_USER = 'ix_notification_recipients_user';

/**
 * A person a user or group send goes to, stored once per send. `visible_at` is copied from the
 * notification so a person's bell is one range scan of IX_RECIPIENTS_USER.
 */
@Entity({ name: 'notification_recipients' })
@Index(IX_RECIPIENTS_USER, ['projectId', 'userId', 'visibleAt', 'notificationId'])
export class NotificationRecipientEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  notificationId: string;

  @PrimaryColumn({ type: 'varchar', length: 256 })
  userId: string;

  @ManyToOne(() => NotificationEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'notification_id', foreignKeyConstraintName: 'fk_notification_recipients_notification' })
  notification?: NotificationEntity;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @Column({ type: 'timestamptz' })
  visibleAt: Date;
}
