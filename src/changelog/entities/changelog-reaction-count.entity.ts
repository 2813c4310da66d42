import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { ReactionName } from '../shared/reaction-set';
import { ChangelogEntryEntity } from './changelog-entry.entity';

/**
 * How many people hold each reaction on an entry, kept in the same transaction as
 * changelog_reactions, so the widget reads counts without counting rows.
 */
@Entity({ name: 'changelog_reaction_counts' })
export class ChangelogReactionCountEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  entryId: string;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  reaction: ReactionName;

  @ManyToOne(() => ChangelogEntryEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'entry_id', foreignKeyConstraintName: 'fk_changelog_reaction_counts_entry' })
  entry?: ChangelogEntryEntity;

  @Column({ type: 'integer' })
  count: number;
}
