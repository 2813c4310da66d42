import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ChangelogEntryEntity } from './changelog-entry.entity';

export type InteractionKind = 'view' | 'click';
export type InteractionSurface = 'page' | 'widget';

/**
 * One view or button click of an entry, appended by the hosted page (and later the widget), for
 * the per-entry numbers. Append-only: no hot counter row for concurrent readers to fight over.
 */
@Entity({ name: 'changelog_interactions' })
@Index('ix_changelog_interactions_entry', ['projectId', 'entryId', 'kind'])
export class ChangelogInteractionEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @Column({ type: 'varchar', length: 32 })
  entryId: string;

  @ManyToOne(() => ChangelogEntryEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'entry_id', foreignKeyConstraintName: 'fk_changelog_interactions_entry' })
  entry?: ChangelogEntryEntity;

  @Column({ type: 'varchar', length: 8 })
  kind: InteractionKind;

  @Column({ type: 'varchar', length: 8 })
  surface: InteractionSurface;

  /** A verified user id or a browser's client id, when known. */
  @Column({ type: 'varchar', length: 256, nullable: true })
  visitor: string | null;

  @Column({ type: 'timestamptz' })
  occurredAt: Date;
}
