import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EndUser } from '../../auth/caller';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { isId } from '../../common/ids/ids';
import { Database } from '../../infra/database/database.service';
import type { ProjectRef } from '../../projects/project-ref';
import { EngagementCaps } from '../engagement/engagement-caps.service';
import { ChangelogReactionSet } from '../settings/reaction-set.service';
import { REACTION_NAMES, type ReactionName } from '../shared/reaction-set';
import type { WidgetReactionsDto } from './dto/widget.dto';
import type { WidgetReactionDto } from './dto/widget-input.dto';
import {
  deleteReaction,
  insertReaction,
  lockReaction,
  moveReactionCount,
  readReactionCounts,
  replaceReaction,
  deleteReadsOfPerson,
  deleteReactionsOfPerson,
} from './reactions.queries';
import { readerOf } from './widget-reader';
import { ENTRY_NOT_FOUND } from './widget.service';
import { visibleEntryIds } from './widget.queries';
import { ErasureRegistry } from '../../infra/erasure/erasure-registry.service';

/**
 * Reactions to entries (spec: Reaction set): one per person per entry, a new one replacing the old;
 * the person is the verified user id, else the browser's client id. Counts live in their own rows,
 * moved in the same transaction as the person's row (the widget reads counts, never counts rows);
 * the person's row is locked first, so two taps of one person in flight cannot both count.
 * Only names of the project's reaction set are taken; taking one back accepts any known name, so a
 * reaction removed from the set can still be withdrawn.
 *
 * A client id is whatever the browser sends, so reactions of client ids count against the address's
 * hourly cap of the entry (EngagementCaps), every reacting call alike: whether the person is new is
 * known only inside the transaction, and asking the shared counter there would hold a database
 * connection over a Redis round trip. Past the cap a new client id is answered 200 with the counts
 * as they are and `my_reaction` null (not recorded), while one that already reacted may still
 * change its reaction (no count grows). Verified users are not capped: one reaction per user id.
 */
@Injectable()
export class ReactionsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly reactionSets: ChangelogReactionSet,
    private readonly caps: EngagementCaps,
    erasure: ErasureRegistry,
  ) {
    // What the widget knows of a person: entries they were shown, and their reactions.
    erasure.contributeRecords('changelog_readers', deleteReadsOfPerson);
    erasure.contributeRecords('changelog_reactions', deleteReactionsOfPerson);
  }

  async react(
    project: ProjectRef,
    endUser: EndUser | null,
    entryId: string,
    body: WidgetReactionDto,
    addressKey: string,
  ): Promise<WidgetReactionsDto> {
    const set = await this.reactionSets.read(this.db.manager, project.id);
    if (set.length === 0) {
      throw new ApiError('VALIDATION_ERROR', 'Reactions are switched off for this changelog.', {
        param: 'reaction',
        remediation:
          'The owner turns them on with PATCH /v1/changelog/settings {"reaction_set": [...]}; hide the reaction buttons meanwhile.',
      });
    }
    if (!(set as string[]).includes(body.reaction)) {
      throw new ApiError('VALIDATION_ERROR', `reaction must be one of the reaction set: ${set.join(', ')}.`, { param: 'reaction' });
    }
    return this.change(project, endUser, entryId, body.client_id, set, addressKey, async (em, reactor, old, at, mayAdd) => {
      const reaction = body.reaction as ReactionName;
      if (old === reaction) return reaction;
      if (old === null && !mayAdd) return null;
      if (old === null && (await insertReaction(em, { projectId: project.id, entryId, reactor, reaction, at }))) {
        await moveReactionCount(em, entryId, null, reaction);
        return reaction;
      }
      // Someone's row exists (maybe inserted by a concurrent request of the same person): lock and replace it.
      const current = old ?? (await lockReaction(em, entryId, reactor));
      if (current === reaction) return reaction;
      await replaceReaction(em, entryId, reactor, reaction, at);
      await moveReactionCount(em, entryId, current, reaction);
      return reaction;
    });
  }

  async takeBack(project: ProjectRef, endUser: EndUser | null, entryId: string, body: WidgetReactionDto): Promise<WidgetReactionsDto> {
    if (!(REACTION_NAMES as readonly string[]).includes(body.reaction)) {
      throw new ApiError('VALIDATION_ERROR', `reaction must be one of: ${REACTION_NAMES.join(', ')}.`, { param: 'reaction' });
    }
    const set = await this.reactionSets.read(this.db.manager, project.id);
    return this.change(project, endUser, entryId, body.client_id, set, null, async (em, reactor, old) => {
      // Taking back a reaction the person does not hold (already replaced) changes nothing.
      if (old !== body.reaction) return old;
      await deleteReaction(em, entryId, reactor);
      await moveReactionCount(em, entryId, old, null);
      return null;
    });
  }

  /** `addressKey`: the address a new reaction counts against; null when the change cannot add one. */
  private async change(
    project: ProjectRef,
    endUser: EndUser | null,
    entryId: string,
    clientId: string | undefined,
    set: readonly ReactionName[],
    addressKey: string | null,
    apply: (em: EntityManager, reactor: string, old: ReactionName | null, at: Date, mayAdd: boolean) => Promise<ReactionName | null>,
  ): Promise<WidgetReactionsDto> {
    const reader = readerOf(endUser, clientId);
    if (reader.reactor === null) {
      throw new ApiError('VALIDATION_ERROR', 'A reaction needs a person: user_id with user_hash, or client_id.', {
        param: 'client_id',
        remediation: "Send the signed-in user's user_id and user_hash, or a client_id the widget keeps in the browser.",
      });
    }
    const reactor = reader.reactor;
    const now = this.clock.now();
    const visible = isId('ce', entryId) ? await visibleEntryIds(this.db.manager, project.id, reader.userId, [entryId], now) : [];
    if (visible.length === 0) throw ENTRY_NOT_FOUND();
    const mayAdd = reader.userId !== null || addressKey === null || (await this.caps.allows('anonymousReactions', addressKey, entryId));
    return this.db.transaction(async (em) => {
      const mine = await apply(em, reactor, await lockReaction(em, entryId, reactor), now, mayAdd);
      const counts = await readReactionCounts(em, entryId);
      const shown = Object.fromEntries(Object.entries(counts).filter(([name]) => (set as string[]).includes(name)));
      return { entry_id: entryId, reactions: shown, my_reaction: mine };
    });
  }
}
