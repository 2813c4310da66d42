import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EndUser } from '../../auth/caller';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { isId } from '../../common/ids/ids';
import { Database } from '../../infra/database/database';
import type { ProjectRef } from '../../projects/project-ref';
import { ChangelogReactionSet } from '../reaction-set.service';
import { REACTION_NAMES, type ReactionName } from '../settings/reaction-set';
import type { WidgetReactionsDto } from './dto/widget.dto';
import type { WidgetReactionDto } from './dto/widget-input.dto';
import { deleteReaction, insertReaction, lockReaction, moveReactionCount, readReactionCounts, replaceReaction } from './reactions.queries';
import { readerOf } from './widget-reader';
import { ENTRY_NOT_FOUND } from './widget.service';
import { visibleEntryIds } from './widget.queries';

/**
 * Reactions to entries (spec: Reaction set): one per person per entry, a new one replacing the old;
 * the person is the verified user id, else the browser's client id. Counts live in their own rows,
 * moved in the same transaction as the person's row (the widget reads counts, never counts rows);
 * the person's row is locked first, so two taps of one person in flight cannot both count.
 * Only names of the project's reaction set are taken; taking one back accepts any known name, so a
 * reaction removed from the set can still be withdrawn.
 */
@Injectable()
export class ReactionsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly reactionSets: ChangelogReactionSet,
  ) {}

  async react(project: ProjectRef, endUser: EndUser | null, entryId: string, body: WidgetReactionDto): Promise<WidgetReactionsDto> {
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
    return this.change(project, endUser, entryId, body.client_id, set, async (em, reactor, old, at) => {
      const reaction = body.reaction as ReactionName;
      if (old === reaction) return reaction;
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
    return this.change(project, endUser, entryId, body.client_id, set, async (em, reactor, old) => {
      // Taking back a reaction the person does not hold (already replaced) changes nothing.
      if (old !== body.reaction) return old;
      await deleteReaction(em, entryId, reactor);
      await moveReactionCount(em, entryId, old, null);
      return null;
    });
  }

  private async change(
    project: ProjectRef,
    endUser: EndUser | null,
    entryId: string,
    clientId: string | undefined,
    set: readonly ReactionName[],
    apply: (em: EntityManager, reactor: string, old: ReactionName | null, at: Date) => Promise<ReactionName | null>,
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
    return this.db.transaction(async (em) => {
      const mine = await apply(em, reactor, await lockReaction(em, entryId, reactor), now);
      const counts = await readReactionCounts(em, entryId);
      const shown = Object.fromEntries(Object.entries(counts).filter(([name]) => (set as string[]).includes(name)));
      return { entry_id: entryId, reactions: shown, my_reaction: mine };
    });
  }
}
