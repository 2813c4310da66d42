import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import type { RawReply } from '../../common/http/reply';
import { codePointLength } from '../../common/validation/char-length';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../../infra/database/database.service';
import { SLUG_PATTERN, isValidSlug } from '../../projects/slugs';
import { ProjectSlugsService } from '../../projects/slug-history/project-slugs.service';
import { isId } from '../../common/ids/ids';
import { changelogEntryPage, changelogListPage, changelogNotFoundPage } from './changelog-pages';
import { PUBLIC_DEFAULT_LIMIT, PUBLIC_QUERY_MAX } from './dto/public-changelog-query.dto';
import { PublicChangelogCache } from './public-changelog.cache';
import { readPublicChangelog } from './public-changelog.queries';
import { publicLinks } from './public-links';

/** A query parameter as one string, or null (repeated, empty or too long values are dropped). */
function queryText(value: unknown, valid: (text: string) => boolean): string | null {
  return typeof value === 'string' && value.trim() !== '' && valid(value) ? value.trim() : null;
}

/**
 * The hosted changelog pages (issue 9 item 6). Same entry set and order as the JSON and the feeds
 * (the same query); the newest 50 entries. A page is a page even when a query parameter is odd: a
 * malformed `label` or an over-long `q` is ignored rather than answered with JSON. Unknown slugs
 * and entries outside the public set (draft, scheduled, archived, signed-in or segment audience,
 * expired, another project's) get the same 404 page, so nothing tells them apart. Pages are
 * public and cacheable (ETag, `public, max-age=60`): they hold nothing personal, unlike the
 * waitlist's pages. Pages without `q` are rendered once per change and kept by every process
 * (public-changelog.cache.ts).
 */
@Injectable()
export class HostedChangelogService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly slugs: ProjectSlugsService,
    private readonly answers: PublicChangelogCache,
  ) {}

  /** `customDomain`: the verified custom domain the page is served on, which its canonical and feed links then use. */
  async showChangelogPage(slug: string, rawLabel: unknown, rawQ: unknown, customDomain: string | null = null): Promise<RawReply> {
    if (!isValidSlug(slug)) return changelogNotFoundPage();
    const label = queryText(rawLabel, (text) => SLUG_PATTERN.test(text));
    const q = queryText(rawQ, (text) => codePointLength(text) <= PUBLIC_QUERY_MAX && !text.includes('\u0000'));
    const render = async () => {
      const changelog = await readPublicChangelog(this.db.manager, slug, {
        now: this.clock.now(),
        limit: PUBLIC_DEFAULT_LIMIT,
        label,
        q,
        withLabels: true,
      });
      if (!changelog) return null;
      const { project, entries, labels } = changelog;
      const reply = changelogListPage({
        projectName: project.name,
        slug: project.slug,
        entries,
        labels,
        q,
        label,
        links: publicLinks(this.config, project.slug, customDomain),
      });
      return { projectId: project.id, reply, nextChangeAt: changelog.nextExpiry };
    };
    if (q !== null) return (await render())?.reply ?? this.notFoundUnlessRenamed(slug);
    return this.answers.answer(`page\u0000${slug}\u0000${label ?? ''}\u0000${customDomain ?? ''}`, render, () =>
      this.notFoundUnlessRenamed(slug),
    );
  }

  async showEntryPage(slug: string, entryId: string, customDomain: string | null = null): Promise<RawReply> {
    if (!isValidSlug(slug) || !isId('ce', entryId)) return changelogNotFoundPage();
    let known = false;
    const render = async () => {
      const changelog = await readPublicChangelog(this.db.manager, slug, { now: this.clock.now(), limit: 1, entryId });
      known = changelog !== null;
      const entry = changelog?.entries[0];
      if (!changelog || !entry) return null;
      const links = publicLinks(this.config, changelog.project.slug, customDomain);
      const reply = changelogEntryPage(changelog.project.name, changelog.project.slug, entry, links);
      return { projectId: changelog.project.id, reply, nextChangeAt: changelog.nextExpiry };
    };
    // An entry outside the public set is not kept: publishing it must show it at once.
    return this.answers.answer(`entry\u0000${slug}\u0000${entryId}\u0000${customDomain ?? ''}`, render, () =>
      known ? Promise.resolve(changelogNotFoundPage()) : this.notFoundUnlessRenamed(slug),
    );
  }

  /** A renamed project's old slug redirects (308) to the same page under the current one. */
  private async notFoundUnlessRenamed(slug: string): Promise<RawReply> {
    await this.slugs.redirectIfRenamed(slug, 'project_slug');
    return changelogNotFoundPage();
  }
}
