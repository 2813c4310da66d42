import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';

/**
 * A project's notification signing secret (spec: Notification signing secret). The service must
 * compute HMACs with it, so it is kept encrypted (common/crypto/secret-box.ts, ENCRYPTION_KEY), not
 * hashed. After a rotation the old one verifies until `previous_valid_until`.
 */
@Entity({ name: 'notification_signing_secrets' })
export class NotificationSigningSecretEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  projectId: string;

  @OneToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_notification_signing_secrets_project' })
  project?: ProjectEntity;

  @Column({ type: 'text' })
  secretCiphertext: string;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'text', nullable: true })
  previousCiphertext: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  previousValidUntil: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  rotatedAt: Date | null;
}
