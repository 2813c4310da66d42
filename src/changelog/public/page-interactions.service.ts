import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { isId } from '../../common/ids/ids';
import { Database } from '../../infra/database/database.service';
import { isValidSlug } from '../../projects/slugs';
import { ProjectSlugsService } from '../../projects/slug-history/project-slugs.service';
import type { PageInteractionResultDto, RecordSeenDto } from './dto/page-interaction.dto';
import { EngagementCaps } from '../engagement/engagement-caps.service';
import { EngagementRecorder } from '../engagement/engagement-recorder.service';
import { publicEntryIdsOf } from './public-changelog.queries';

const NOT_FOUND_SLUG = () =>
  new ApiError('NOT_FOUND', 'No public changelog has this slug.', {
    param: 'project_slug',
    remediation: "Use the project's slug as shown in the dashboard; slugs are lowercase letters, digits and hyphens.",
  });

/**
 * Views and button clicks counted by the hosted page (surface `page`), for the per-entry numbers.
 * No key and no identity: nothing here is personal data; the per-IP browser limit bounds the
 * calls, and the per-address hourly caps of each entry (EngagementCaps, shared with the widget)
 * bound what they add: past a cap the answer is the same and the number stays.
 * Choices: `seen` counts the ids that are in the public set now and skips the rest silently (a page
 * open across an expiry or an archive still succeeds) and answers 200 with how many it counted;
 * `click` is about one entry, so an entry outside the public set is 404 NOT_FOUND. An unknown slug
 * is 404 NOT_FOUND on both. One read each; the counts go through the engagement recorder.
 */
@Injectable()
export class PageInteractionsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly recorder: EngagementRecorder,
    private readonly caps: EngagementCaps,
    private readonly slugs: ProjectSlugsService,
  ) {}

  async recordSeen(slug: string, body: RecordSeenDto, addressKey: string): Promise<PageInteractionResultDto> {
    if (!isValidSlug(slug)) throw NOT_FOUND_SLUG();
    const now = this.clock.now();
    const { projectId, entryIds } = await publicEntryIdsOf(this.db.manager, slug, body.entry_ids, now);
    if (projectId === null) throw await this.notFoundUnlessRenamed(slug);
    await this.recorder.record(projectId, now, {
      views: { surface: 'page', entryIds: await this.caps.within('views', addressKey, entryIds) },
    });
    return { recorded: entryIds.length };
  }

  async recordClick(slug: string, entryId: string, addressKey: string): Promise<PageInteractionResultDto> {
    if (!isValidSlug(slug)) throw NOT_FOUND_SLUG();
    // A malformed id cannot be in the public set; it is the same NOT_FOUND without a query.
    const now = this.clock.now();
    const found = isId('ce', entryId) ? await publicEntryIdsOf(this.db.manager, slug, [entryId], now) : { projectId: slug, entryIds: [] };
    if (found.projectId === null) throw await this.notFoundUnlessRenamed(slug);
    if (found.entryIds.length === 0) {
      throw new ApiError('NOT_FOUND', 'This changelog has no public entry with this id.', {
        param: 'id',
        remediation: 'Send the id of an entry shown on the public changelog (published, public audience, not expired).',
      });
    }
    if (await this.caps.allows('ctaClicks', addressKey, entryId))
      await this.recorder.record(found.projectId, now, { ctaClicks: [entryId] });
    return { recorded: 1 };
  }

  /** A renamed project's old slug redirects (308, method and body kept) to the current one. */
  private async notFoundUnlessRenamed(slug: string): Promise<ApiError> {
    await this.slugs.redirectIfRenamed(slug, 'project_slug');
    return NOT_FOUND_SLUG();
  }
}
