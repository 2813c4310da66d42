import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { LookupCache } from '../../common/cache/lookup-cache';
import { Clock } from '../../common/clock/clock';
import type { RawReply } from '../../common/http/reply';
import { ChangeNotifications } from '../../infra/database/change-notifications.service';
import { PROJECT_CHANGE } from '../../projects/projects.service';

/** A change to what a project's public changelog shows: its entries, their labels. */
const PUBLIC_CHANGELOG_CHANGE = 'changelog-public';

/** A public answer as rendered, with what it depends on. */
export interface RenderedPublicAnswer {
  projectId: string;
  reply: RawReply;
  /** When the answer changes without a write (the first public entry to expire), or null. */
  nextChangeAt: Date | null;
}

interface CachedAnswer extends RenderedPublicAnswer {
  renderedAtMs: number;
}

/**
 * A safety net only: every write announces its change and the copy ends at the next expiry. It
 * bounds what a forgotten announcement could leave stale, as the bell's copy does.
 */
const PUBLIC_ANSWER_MAX_AGE_MS = 5 * 60_000;
/**
 * Answers kept per process. A page or feed of 50 entries is tens of KB, rarely 100; past this many
 * the oldest eighth is dropped (they come back on their next request), which bounds it near 100 MB
 * in the worst case.
 */
const MAX_ANSWERS = 1_000;

/**
 * The public changelog surfaces — the JSON, the hosted list and entry pages and the three feeds,
 * on the service's host and on custom domains — rendered once per change and served from each
 * process's copy with the strong ETag computed when it was rendered, so a repeat costs no query,
 * no rendering and no hashing, and a matching If-None-Match is a 304.
 *
 * What changes an answer: a write to the project's entries or labels (announced by the changelog's
 * services as PUBLIC_CHANGELOG_CHANGE inside their transactions), a change to the project itself
 * (name, slug, deletion: the projects module's own PROJECT_CHANGE), and time (an entry's
 * `expires_at`, read with the answer). Copies go when PostgreSQL delivers the NOTIFY at COMMIT, and
 * all of them when the listener may have missed one (ChangeNotifications). Unknown slugs, search
 * queries (`q`, any text) and the not-found pages are never kept.
 */
@Injectable()
export class PublicChangelogCache {
  private readonly cache = new LookupCache<CachedAnswer>({
    ownersOf: (answer) => [answer.projectId],
    expiresAt: (answer, storedAtMs) =>
      Math.min(storedAtMs + PUBLIC_ANSWER_MAX_AGE_MS, answer.nextChangeAt?.getTime() ?? Number.POSITIVE_INFINITY),
    maxEntries: MAX_ANSWERS,
  });

  constructor(
    private readonly clock: Clock,
    private readonly changes: ChangeNotifications,
  ) {
    changes.subscribe({
      onChange: {
        [PUBLIC_CHANGELOG_CHANGE]: (projectId) => this.cache.invalidateOwner(projectId),
        [PROJECT_CHANGE]: (projectId) => this.cache.invalidateOwner(projectId),
      },
      onGap: () => this.cache.clear(),
    });
  }

  /**
   * The answer for `key` (every input the rendering reads: surface, slug, filters, host), from the
   * copy while nothing changed it, else `render`'s. `render` answers null for what is not kept (an
   * unknown slug): that answer is then `miss`'s.
   */
  async answer(key: string, render: () => Promise<RenderedPublicAnswer | null>, miss: () => Promise<RawReply>): Promise<RawReply> {
    this.changes.start();
    if (!this.changes.isListening) return (await render())?.reply ?? miss();
    const nowMs = this.clock.now().getTime();
    const cached = this.cache.get(key, nowMs);
    if (cached && cached.renderedAtMs <= nowMs) return cached.reply;
    if (cached) this.cache.invalidate(key);
    try {
      const answer = await this.cache.lookup(
        key,
        () => this.clock.now().getTime(),
        async () => {
          const rendered = await render();
          // Thrown, not returned: the cache would keep a null for a while, and a project created
          // with this slug must show at once.
          if (!rendered) throw NOT_KEPT;
          return { ...rendered, renderedAtMs: nowMs };
        },
      );
      return (answer as CachedAnswer).reply;
    } catch (error) {
      if (error === NOT_KEPT) return miss();
      throw error;
    }
  }

  /** Announces, in `em`'s transaction, that the project's public changelog may have changed. */
  async announce(em: EntityManager, projectId: string): Promise<void> {
    await this.changes.announce(em, PUBLIC_CHANGELOG_CHANGE, projectId);
  }
}

const NOT_KEPT = Symbol('not kept');
