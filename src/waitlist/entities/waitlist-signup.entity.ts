import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';
import { UQ_SIGNUP_EMAIL, UQ_SIGNUP_POSITION, UQ_SIGNUP_REFERRAL_CODE } from '../waitlist.queries';

export const SIGNUP_STATUSES = ['waiting', 'invited', 'unsubscribed'] as const;
export type SignupStatus = (typeof SIGNUP_STATUSES)[number];

/**
 * How a person joined: `api` (secret key, a server), `widget` (publishable key, a browser form) or
 * `import` (operator CSV import). The event's `source` field carries it.
 */
export type SignupChannel = 'api' | 'widget' | 'import';

/** Attribution the browser sent (spec: Waitlist signup input → `source`). */
export interface SignupSource {
  referrer?: string;
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
  landing_path?: string;
}

/**
 * A person on a project's waitlist. Emails are stored lower-cased; the unique indexes decide
 * duplicates, positions and referral codes under concurrency.
 */
@Entity({ name: 'waitlist_signups' })
@Index(UQ_SIGNUP_EMAIL, ['projectId', 'email'], { unique: true })
@Index(UQ_SIGNUP_POSITION, ['projectId', 'position'], { unique: true })
@Index(UQ_SIGNUP_REFERRAL_CODE, ['projectId', 'referralCode'], { unique: true })
@Index('ix_waitlist_signups_project_status_position', ['projectId', 'status', 'position'])
@Index('ix_waitlist_signups_project_referral_count', ['projectId', 'referralCount'])
export class WaitlistSignupEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_waitlist_signups_project' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 254 })
  email: string;

  /** 1-based place in line, fixed at signup, gap-free per project. */
  @Column({ type: 'int' })
  position: number;

  @Column({ type: 'varchar', length: 8 })
  referralCode: string;

  @Index('ix_waitlist_signups_referred_by')
  @Column({ type: 'varchar', length: 32, nullable: true })
  referredBySignupId: string | null;

  @ManyToOne(() => WaitlistSignupEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'referred_by_signup_id', foreignKeyConstraintName: 'fk_waitlist_signups_referred_by' })
  referredBy?: WaitlistSignupEntity;

  /** People who joined with this signup's code; incremented in their signup transaction. */
  @Column({ type: 'int', default: 0 })
  referralCount: number;

  @Column({ type: 'varchar', length: 16 })
  status: SignupStatus;

  @Column({ type: 'varchar', length: 16 })
  channel: SignupChannel;

  @Column({ type: 'timestamptz', nullable: true })
  confirmedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  invitedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  unsubscribedAt: Date | null;

  /** When the last confirmation email was written; resend is allowed 5 minutes after it. */
  @Column({ type: 'timestamptz', nullable: true })
  lastConfirmationSentAt: Date | null;

  @Column({ type: 'jsonb', default: {} })
  metadata: Record<string, string | number | boolean>;

  @Column({ type: 'jsonb', default: {} })
  source: SignupSource;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
