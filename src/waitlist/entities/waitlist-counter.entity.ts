import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

/**
 * The last position handed out per project. Incremented inside the signup transaction: the row
 * lock serializes the project's signups and a rollback gives the number back, so positions are
 * gap-free. Every insert into waitlist_signups takes this lock before it inserts, as the last lock
 * of its transaction (the lock order is in signups.service.ts).
 */
@Entity({ name: 'waitlist_counters' })
export class WaitlistCounterEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  projectId: string;

  @OneToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_waitlist_counters_project' })
  project?: ProjectEntity;

  @Column({ type: 'int', default: 0 })
  lastPosition: number;
}
