import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../../projects/entities/project.entity';

export type ErasureActorKind = 'api_key' | 'account';

/**
 * The audit record of one erasure. It holds no personal data: the erased contact's id, what was
 * removed (counts per kind) and who asked (an API key id or a dashboard account id).
 */
@Entity({ name: 'contact_erasures' })
@Index('ix_contact_erasures_project', ['projectId', 'id'])
export class ContactErasureEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_contact_erasures_project' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 32 })
  contactId: string;

  @Column({ type: 'jsonb' })
  removed: Record<string, number>;

  @Column({ type: 'varchar', length: 16 })
  actorKind: ErasureActorKind;

  @Column({ type: 'varchar', length: 32 })
  actorId: string;

  @Column({ type: 'timestamptz' })
  erasedAt: Date;
}
