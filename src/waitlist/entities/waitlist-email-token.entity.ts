import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';
import type { EmailTokenPurpose } from '../email-tokens';
import { WaitlistSignupEntity } from './waitlist-signup.entity';

/**
 * The token of one link in one waitlist email, stored as its SHA-256 hash. Each email gets fresh
 * tokens, and older ones keep working, so every unsubscribe link ever sent stays valid.
 */
@Entity({ name: 'waitlist_email_tokens' })
export class WaitlistEmailTokenEntity {
  @PrimaryColumn({ type: 'char', length: 64 })
  tokenHash: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_waitlist_email_tokens_project' })
  project?: ProjectEntity;

  @Index('ix_waitlist_email_tokens_signup')
  @Column({ type: 'varchar', length: 32 })
  signupId: string;

  @ManyToOne(() => WaitlistSignupEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'signup_id', foreignKeyConstraintName: 'fk_waitlist_email_tokens_signup' })
  signup?: WaitlistSignupEntity;

  @Column({ type: 'varchar', length: 16 })
  purpose: EmailTokenPurpose;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
