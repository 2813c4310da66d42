import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { DueRowColumns } from '../../infra/queue/due-row-columns';
import { NotificationEntity } from './notification.entity';

/** pending: waiting for `send_at`; released: the notification became visible; skipped: it was deleted or already visible. */
type ReleaseStatus = 'pending' | 'released' | 'skipped' | 'failed';

/** A scheduled notification's release as a due row (infra/queue/due-rows.service.ts), due at `send_at`. */
@Entity({ name: 'notification_releases' })
@Index('ix_notification_releases_due', ['status', 'nextAttemptAt'])
export class NotificationReleaseEntity extends DueRowColumns<ReleaseStatus> {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @Index('ix_notification_releases_notification')
  @Column({ type: 'varchar', length: 32 })
  notificationId: string;

  @ManyToOne(() => NotificationEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'notification_id', foreignKeyConstraintName: 'fk_notification_releases_notification' })
  notification?: NotificationEntity;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
