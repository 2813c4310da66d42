import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { ReactionName } from '../shared/reaction-set';
import { ChangelogEntryEntity } from './changelog-entry.entity';

/**
 * One person's reaction to an entry (spec: Reaction set): the person is `u:<user id>` (verified) or
 * `c:<client id>`, so the two kinds can never collide; a new reaction replaces the old one.
 */
@Entity({ name: 'changelog_reactions' })
export class ChangelogReactionEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  entryId: string;

  @PrimaryColumn({ type: 'varchar', length: 260 })
  reactor: string;

  @Column({ type: 'varchar', length: 32 })
  projectId: string;

  @ManyToOne(() => ChangelogEntryEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'entry_id', foreignKeyConstraintName: 'fk_changelog_reactions_entry' })
  entry?: ChangelogEntryEntity;

  @Column({ type: 'varchar', length: 16 })
  reaction: ReactionName;

  @Column({ type: 'timestamptz' })
  reactedAt: Date;
}
