import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

/**
 * The outbox: an event row is written in the same transaction as the change it describes, so an
 * event exists exactly when its change does. Deliveries to webhook endpoints are made from it.
 */
@Entity({ name: 'events' })
@Index('ix_events_project_created', ['projectId', 'createdAt'])
export class EventEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_events_project' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  @Column({ type: 'jsonb' })
  data: Record<string, unknown>;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
