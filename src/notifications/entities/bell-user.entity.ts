import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

/**
 * A user id whose bell has asked, with when it last did (moved at most once an hour per person,
 * so polling writes nothing more often). A broadcast's `reached` is the number of these that asked
 * after it showed; `active_7d` those that asked in the last 7 days.
 */
@Entity({ name: 'bell_users' })
@Index('ix_bell_users_last_seen', ['projectId', 'lastSeenAt'])
export class BellUserEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  projectId: string;

  @PrimaryColumn({ type: 'varchar', length: 256 })
  userId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_bell_users_project' })
  project?: ProjectEntity;

  @Column({ type: 'timestamptz' })
  firstSeenAt: Date;

  @Column({ type: 'timestamptz' })
  lastSeenAt: Date;
}
