import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ProjectEntity } from '../../projects/entities/project.entity';
import { ChangelogEntryEntity } from './changelog-entry.entity';

/**
 * An entry's request for one bell broadcast (`notify_in_app`), written when the entry is first
 * published; the entry id is the key, so there is one per entry however often it is saved. The
 * notifications module turns pending requests into broadcasts and stamps `broadcast_at`. Never
 * written for segment entries; `url` is null for signed-in entries.
 */
@Entity({ name: 'changelog_bell_requests' })
@Index('ix_changelog_bell_requests_pending', ['createdAt'], { where: 'broadcast_at IS NULL' })
export class ChangelogBellRequestEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  entryId: string;

  @ManyToOne(() => ChangelogEntryEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'entry_id', foreignKeyConstraintName: 'fk_changelog_bell_requests_entry' })
  entry?: ChangelogEntryEntity;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'fk_changelog_bell_requests_project' })
  project?: ProjectEntity;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  /** The entry's public page; null for signed-in entries. */
  @Column({ type: 'varchar', length: 2048, nullable: true })
  url: string | null;

  @Column({ type: 'varchar', length: 16 })
  audience: string;

  @Column({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  broadcastAt: Date | null;
}
