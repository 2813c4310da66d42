import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AccountEntity } from '../../accounts/entities/account.entity';
import type { PlanName } from '../plans';

/** Per-project switches. Stored as one JSON document so modules can add theirs without a migration. */
export interface ProjectSettings {
  /** Identity verification for bell reads (spec: Notification identity verification). */
  require_user_hash: boolean;
  /**
   * The changelog's reaction set (spec: Reaction set; names in changelog/shared/reaction-set.ts);
   * absent until the owner sets one, which means the default set. Read it from the database, not
   * from a cached ProjectRef (the key cache keeps a project for seconds).
   */
  changelog_reaction_set?: string[];
  /**
   * The `notify_in_app` of a new changelog entry that does not say (spec: Notification settings);
   * absent means false. Read it from the database, like the reaction set.
   */
  changelog_to_bell_default?: boolean;
}

export const DEFAULT_PROJECT_SETTINGS: ProjectSettings = { require_user_hash: true };

@Entity({ name: 'projects' })
export class ProjectEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Index('ix_projects_account_id')
  @Column({ type: 'varchar', length: 32, nullable: true })
  accountId: string | null;

  @ManyToOne(() => AccountEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_projects_account' })
  account?: AccountEntity;

  @Index('uq_projects_slug', { unique: true })
  @Column({ type: 'varchar', length: 40 })
  slug: string;

  /** True while the slug is the one derived from the name: the first rename away from it is not counted. */
  @Column({ type: 'boolean', default: false })
  slugGenerated: boolean;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  plan: PlanName;

  @Column({ type: 'jsonb', default: {} })
  settings: ProjectSettings;

  /**
   * Set on a test-mode twin: the live project it mirrors. svc_test_ keys belong to the twin, so every
   * query (already scoped by project_id) keeps test data apart from live data.
   */
  @Index('uq_projects_live_project_id', { unique: true })
  @Column({ type: 'varchar', length: 32, nullable: true })
  liveProjectId: string | null;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'live_project_id', foreignKeyConstraintName: 'fk_projects_live_project' })
  liveProject?: ProjectEntity;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;
}
