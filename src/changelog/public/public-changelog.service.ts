import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import type { RawReply } from '../../common/http/reply';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../../infra/database/database.service';
import { isValidSlug } from '../../projects/slugs';
import { ProjectSlugsService } from '../../projects/slug-history/project-slugs.service';
import { cacheableReply } from './cacheable-reply';
import { PublicChangelogCache, type RenderedPublicAnswer } from './public-changelog.cache';
import { FEED_FORMATS, type FeedFormat, renderFeed } from './changelog-feeds';
import { toPublicChangelogEntryDto } from './dto/public-changelog-entry.dto';
import { PUBLIC_DEFAULT_LIMIT, type PublicChangelogQueryDto } from './dto/public-changelog-query.dto';
import { type PublicChangelog, type PublicSetFilter, readPublicChangelog } from './public-changelog.queries';
import { publicLinks } from './public-links';

/**
 * The public changelog as data: `GET /public/changelog/{slug}` and the three feeds (issue 9 items
 * 6 and 11). Choices the spec leaves open:
 * - The JSON lists the newest 50 entries (pinned first) by default; `limit` takes 1 to 100. `label`
 *   (a slug; an unknown one lists nothing rather than failing, so an old filter link stays
 *   harmless) and `q` (case-insensitive substring of title or markdown body, matched literally)
 *   filter it. Feeds always carry the newest 50, unfiltered.
 * - Every answer comes from one SQL statement (public-changelog.queries.ts) and carries a strong
 *   ETag (SHA-256 of the body) and `Cache-Control: public, max-age=60`; `If-None-Match` with the
 *   tag answers 304 with no body. `Access-Control-Allow-Origin: *` is on every answer, so a cached
 *   copy serves browsers too.
 * - An unknown slug answers 404 NOT_FOUND in the error envelope, feeds included.
 * - Answers without `q` are rendered once per change and kept by every process
 *   (public-changelog.cache.ts); a search is read every time.
 */
@Injectable()
export class PublicChangelogService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly slugs: ProjectSlugsService,
    private readonly answers: PublicChangelogCache,
  ) {}

  async listPublicEntries(slug: string, query: PublicChangelogQueryDto): Promise<RawReply> {
    const filter = { label: query.label, q: query.q, limit: query.limit ?? PUBLIC_DEFAULT_LIMIT };
    const render = () =>
      this.rendered(slug, filter, (changelog) => {
        const links = publicLinks(this.config, changelog.project.slug);
        const data = changelog.entries.map((entry) => toPublicChangelogEntryDto(entry, links.entry(entry.id)));
        return cacheableReply(JSON.stringify({ data, error: null }), 'application/json; charset=utf-8', { cors: true });
      });
    if (query.q) return (await render())?.reply ?? this.notFound(slug);
    return this.answers.answer(`json\u0000${slug}\u0000${filter.label ?? ''}\u0000${filter.limit}`, render, () => this.notFound(slug));
  }

  /** `customDomain`: the verified custom domain it is read on, which its links then use. */
  async getFeed(slug: string, format: FeedFormat, customDomain: string | null = null): Promise<RawReply> {
    return this.answers.answer(
      `feed\u0000${slug}\u0000${format}\u0000${customDomain ?? ''}`,
      () =>
        this.rendered(slug, { limit: PUBLIC_DEFAULT_LIMIT }, (changelog) => {
          const feed = renderFeed(changelog, publicLinks(this.config, changelog.project.slug, customDomain), format);
          return cacheableReply(feed, FEED_FORMATS[format].contentType, { cors: true });
        }),
      () => this.notFound(slug),
    );
  }

  /** One read of the public set, rendered; null for an unknown slug. */
  private async rendered(
    slug: string,
    filter: Omit<PublicSetFilter, 'now'>,
    render: (changelog: PublicChangelog) => RawReply,
  ): Promise<RenderedPublicAnswer | null> {
    const changelog = isValidSlug(slug) ? await readPublicChangelog(this.db.manager, slug, { ...filter, now: this.clock.now() }) : null;
    return changelog && { projectId: changelog.project.id, reply: render(changelog), nextChangeAt: changelog.nextExpiry };
  }

  private async notFound(slug: string): Promise<never> {
    // A renamed project's old slug redirects (308) to the same address under the current one.
    await this.slugs.redirectIfRenamed(slug, 'project_slug');
    throw new ApiError('NOT_FOUND', 'No public changelog has this slug.', {
      param: 'project_slug',
      remediation: "Use the project's slug as shown in the dashboard; slugs are lowercase letters, digits and hyphens.",
    });
  }
}
