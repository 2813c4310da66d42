import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

/**
 * Sends counted per project and UTC month (spec: Limits → Notifications): a conditional increment
 * of this row decides the quota, so concurrent sends can never pass it.
 */
@Entity({ name: 'notification_usage' })
export class NotificationUsageEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  projectId: string;

  /** "2026-11" */
  @PrimaryColumn({ type: 'char', length: 7 })
  month: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_notification_usage_project' })
  project?: ProjectEntity;

  @Column({ type: 'int', default: 0 })
  sent: number;
}
