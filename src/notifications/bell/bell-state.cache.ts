import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { LookupCache } from '../../common/cache/lookup-cache';
import { Clock } from '../../common/clock/clock';
import { BELL_CHANGES, ChangeNotifications, bellPersonId } from '../../infra/database/change-notifications.service';
import { Database } from '../../infra/database/database.service';
import { type BellScope, readBellState } from './bell.queries';

/** A person's bell as this process last read it. */
interface BellState {
  readonly projectId: string;
  readonly unreadCount: number;
  /** The clock time the count was read at; a copy is never used for an earlier time. */
  readonly readAtMs: number;
  /** When the count changes without a write: the next notification to show, the next broadcast to leave the window. */
  readonly nextChangeAtMs: number | null;
  /**
   * The ETags of the answers given from this very state (the count, and the lists by their query),
   * so a conditional poll of an unchanged bell is answered 304 without a query or a hash. Dropped
   * with the state.
   */
  readonly answerTags: Map<string, string>;
}

/**
 * A safety net only: every write that changes a bell announces it (below), and a copy stops at the
 * next time the count changes by itself. Five minutes bounds what a write that forgot to announce
 * could leave stale, and is long enough for a bell polling every 15-60 s to hit its copy.
 */
const BELL_STATE_MAX_AGE_MS = 5 * 60_000;
/** A send to more people than this announces a change to the project's bells, not one per person. */
const PER_PERSON_ANNOUNCE_LIMIT = 100;
/** Bells kept per process; past this the oldest eighth is dropped (a person's state is ~200 bytes). */
const MAX_BELLS = 100_000;

/**
 * The bell's badge without SQL (issue: a near-free bell poll). Each process keeps every polling
 * person's unread count until something changes it, and something changes it in two ways only:
 *
 * - A write: a send (to people or a broadcast), a changelog broadcast, a read, click, archive,
 *   reaction or read-all, a delete, a retention pass, a contact's erasure. Each announces the
 *   people it concerns (BELL_CHANGES.person) or the whole project (BELL_CHANGES.project) inside its
 *   transaction, through ChangeNotifications: this process drops its copies after COMMIT, the
 *   others when PostgreSQL delivers the NOTIFY at COMMIT. A read that raced with a write stores
 *   nothing (LookupCache), and while the listener is down nothing is served from a copy.
 * - Time: a scheduled notification shows at its `visible_at` without any write, and a broadcast
 *   leaves the bell 30 days after it showed. The statement that reads the count also answers the
 *   next such moment, and the copy ends there.
 */
@Injectable()
export class BellStateCache {
  private readonly cache = new LookupCache<BellState>({
    ownersOf: (state) => [state.projectId],
    expiresAt: (state, storedAtMs) => Math.min(storedAtMs + BELL_STATE_MAX_AGE_MS, state.nextChangeAtMs ?? Number.POSITIVE_INFINITY),
    maxEntries: MAX_BELLS,
  });

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly changes: ChangeNotifications,
  ) {
    changes.subscribe({
      onChange: {
        [BELL_CHANGES.person]: (id) => this.cache.invalidate(id),
        [BELL_CHANGES.project]: (projectId) => this.cache.invalidateOwner(projectId),
      },
      onGap: () => this.cache.clear(),
    });
  }

  /** The person's bell state at `scope.now`: this process's copy while nothing changed it, else one statement. */
  async state(scope: BellScope): Promise<BellState> {
    this.changes.start();
    if (!this.changes.isListening) return this.load(scope);
    const key = bellPersonId(scope.projectId, scope.userId);
    const nowMs = scope.now.getTime();
    const cached = this.cache.get(key, nowMs);
    if (cached && cached.readAtMs <= nowMs) return cached;
    // A copy read at a later time than this request's (a test's clock set back) is not this time's answer.
    if (cached) this.cache.invalidate(key);
    return this.cache.lookup(
      key,
      () => this.clock.now().getTime(),
      () => this.load(scope),
    ) as Promise<BellState>;
  }

  /** The copy this process holds now, if any (for a conditional list poll). */
  peek(projectId: string, userId: string, nowMs: number): BellState | undefined {
    if (!this.changes.isListening) return undefined;
    const cached = this.cache.get(bellPersonId(projectId, userId), nowMs);
    return cached && cached.readAtMs <= nowMs ? cached : undefined;
  }

  /** Announces, in `em`'s transaction, a change to these people's bells (the project's, for many people). */
  async announcePeople(em: EntityManager, projectId: string, userIds: readonly string[]): Promise<void> {
    if (userIds.length > PER_PERSON_ANNOUNCE_LIMIT) return this.announceProject(em, projectId);
    await this.changes.announceMany(
      em,
      BELL_CHANGES.person,
      userIds.map((userId) => bellPersonId(projectId, userId)),
    );
  }

  /** Announces, in `em`'s transaction, a change to every bell of the project (a broadcast, a delete). */
  async announceProject(em: EntityManager, projectId: string): Promise<void> {
    await this.changes.announce(em, BELL_CHANGES.project, projectId);
  }

  /** The same for several projects (a retention pass). */
  async announceProjects(em: EntityManager, projectIds: readonly string[]): Promise<void> {
    await this.changes.announceMany(em, BELL_CHANGES.project, [...new Set(projectIds)]);
  }

  private async load(scope: BellScope): Promise<BellState> {
    const row = await readBellState(this.db.preparedReads, scope);
    return {
      projectId: scope.projectId,
      unreadCount: row.unreadCount,
      readAtMs: scope.now.getTime(),
      nextChangeAtMs: row.nextChangeAt ? row.nextChangeAt.getTime() : null,
      answerTags: new Map(),
    };
  }
}
