import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { listPage, newestFirst } from '../common/http/list-page';
import { Paged } from '../common/http/reply';
import type { CallerKind } from '../auth/caller';
import { isId, newId } from '../common/ids/ids';
import { ContactsService } from '../contacts/contacts.service';
import { OutboxService } from '../events/outbox.service';
import { idempotently } from '../idempotency/idempotent-call';
import { Database } from '../infra/database/database.service';
import type { ProjectRef } from '../projects/project-ref';
import { classifyFeedback } from './classifier/classify-feedback';
import { CreateFeedbackDto } from './dto/create-feedback.dto';
import { FeedbackDetailDto, FeedbackDto, toFeedbackDetailDto, toFeedbackDto } from './dto/feedback.dto';
import { ListFeedbackQueryDto } from './dto/list-feedback-query.dto';
import { FeedbackEntity } from './entities/feedback.entity';
import { feedbackCreatedData } from './feedback-event';
import { insertFeedback, blankPersonInFeedback } from './feedback.queries';
// The fragment the changelog's entry numbers compose into their statement (see feedback.queries.ts).
export { feedbackCountOfEntry } from './feedback.queries';
import { ErasureRegistry } from '../infra/erasure/erasure-registry.service';

/**
 * Whether an id is one of the project's published changelog entries (spec: Feedback input,
 * `changelog_entry_id`: any other id is dropped and the feedback kept). It runs on the caller's
 * `em`, inside the feedback transaction: a second connection would deadlock on the embedded database.
 */
type ChangelogEntryCheck = (em: EntityManager, projectId: string, entryId: string) => Promise<boolean>;

/**
 * Feedback: how a product hears its users right after a launch (spec: Feedback input, Feedback
 * endpoints, `feedback.created`, Limits → Feedback).
 *
 * Choices the spec leaves open:
 * - Input: only `feedback_text` is required; every other field may be absent or null. The text is
 *   trimmed before its 10 to 2000 check and stored trimmed; lengths count code points. `page_url`
 *   must be an absolute http(s) URL (stored as sent); `rating` an integer 1 to 5; the email is
 *   trimmed and lower-cased before its checks (`@EmailField`). Identical feedback sent twice is two
 *   records: retries are what Idempotency-Key is for.
 * - `changelog_entry_id`: any string is accepted; it is kept only when it has the `ce_` id shape and
 *   `ChangelogEntryCheck` says it is one of the project's published entries (any audience, expired
 *   or not), otherwise stored as null without an error.
 * - Classification runs once, on arrival, with the deterministic classifier in
 *   classifier/classify-feedback.ts (its doc comment explains how it works and its limits). Values:
 *   bug, feature_request, praise, billing, support, other, spam. `category_hint` is a strong prior
 *   that decides ambiguous text but loses to clear evidence (and spam always wins); the rating is a
 *   weak prior. `confidence` (0 to 1) is a relative score; `summary` is the first meaningful
 *   sentence, at most 140 characters. Spam is stored and announced like any feedback, so owners
 *   can audit the classifier; receivers filter on `classification`.
 * - Privacy: the email leaves only through the secret-key `GET /v1/feedback/{feedback_id}`, the one
 *   route the spec names as returning it. The create answer (browsers call it), the list items
 *   (lists get exported and pasted around; one lean shape for every list) and `feedback.created`
 *   carry `has_email` instead. Nothing here logs bodies.
 * - Contacts: a secret-key caller is the product's server, so its email and user id are linked on
 *   one contact (stage `lead`, which never moves a stage back). A publishable-key caller is an
 *   unverified browser: its email and user id each upsert their own contact and are never linked,
 *   since linking would let anyone attach any email to any user's contact.
 * - List: newest first (id descending; ids are time-sorted), filters combine with AND, `since` is
 *   "created at or after", 1 to 100 per page (default 20), opaque cursor.
 * - No plan gate: feedback is on every plan.
 */
@Injectable()
export class FeedbackService {
  private changelogEntries: ChangelogEntryCheck | null = null;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly outbox: OutboxService,
    private readonly contacts: ContactsService,
    erasure: ErasureRegistry,
  ) {
    erasure.contributeRecords('feedback', blankPersonInFeedback);
  }

  /** changelog/ hands in its check of published entries at start (PublishedChangelogEntries). */
  checkChangelogEntriesWith(check: ChangelogEntryCheck): void {
    this.changelogEntries = check;
  }

  /** Stores, classifies and announces one piece of feedback; `credential` says who sent it. */
  async createFeedback(project: ProjectRef, input: CreateFeedbackDto, credential: CallerKind): Promise<FeedbackDto> {
    const verdict = classifyFeedback({ text: input.feedback_text, categoryHint: input.category_hint, rating: input.rating });
    return this.db.transaction((em) =>
      idempotently(em, input, async () => {
        const row = Object.assign(new FeedbackEntity(), {
          id: newId('fb'),
          projectId: project.id,
          feedbackText: input.feedback_text,
          classification: verdict.classification,
          confidence: verdict.confidence,
          summary: verdict.summary,
          userId: input.user_id ?? null,
          email: input.email ?? null,
          pageUrl: input.page_url ?? null,
          rating: input.rating ?? null,
          categoryHint: input.category_hint ?? null,
          changelogEntryId: await this.publishedEntryOrNull(em, project.id, input.changelog_entry_id),
          createdAt: this.clock.now(),
        });
        await insertFeedback(em, row);
        await this.recordSubmitter(em, project.id, row, credential === 'secret_key');
        await this.outbox.record(em, project, 'feedback.created', feedbackCreatedData(row));
        return toFeedbackDto(row);
      }),
    );
  }

  async listFeedback(project: ProjectRef, query: ListFeedbackQueryDto): Promise<Paged<FeedbackDto>> {
    const qb = this.db.manager.createQueryBuilder(FeedbackEntity, 'f').where('f.project_id = :projectId', { projectId: project.id });
    if (query.classification) qb.andWhere('f.classification = :classification', { classification: query.classification });
    if (query.user_id) qb.andWhere('f.user_id = :userId', { userId: query.user_id });
    if (query.changelog_entry_id) qb.andWhere('f.changelog_entry_id = :entryId', { entryId: query.changelog_entry_id });
    if (query.since) qb.andWhere('f.created_at >= :since', { since: new Date(query.since) });
    return listPage(qb, query, newestFirst('fb'), toFeedbackDto);
  }

  /** The full record with the email; another project's id, an unknown or a malformed one is NOT_FOUND. */
  async getFeedback(project: ProjectRef, feedbackId: string): Promise<FeedbackDetailDto> {
    const row = isId('fb', feedbackId)
      ? await this.db.manager.findOne(FeedbackEntity, { where: { projectId: project.id, id: feedbackId } })
      : null;
    if (!row) throw new ApiError('NOT_FOUND', `No feedback ${feedbackId.slice(0, 64)} in this project.`, { param: 'feedback_id' });
    return toFeedbackDetailDto(row);
  }

  /**
   * Feedback counts per changelog entry, for the changelog's per-entry numbers: one GROUP BY over
   * ix_feedback_project_changelog_entry. Every requested id is in the map (0 when it has none).
   * Pass `em` to count inside a transaction.
   */
  async countForEntries(projectId: string, entryIds: readonly string[], em: EntityManager = this.db.manager): Promise<Map<string, number>> {
    const counts = new Map<string, number>([...new Set(entryIds)].map((id) => [id, 0]));
    if (counts.size === 0) return counts;
    const rows = await em
      .createQueryBuilder(FeedbackEntity, 'f')
      .select('f.changelog_entry_id', 'entry_id')
      .addSelect('COUNT(*)', 'count')
      .where('f.project_id = :projectId', { projectId })
      .andWhere('f.changelog_entry_id = ANY(:entryIds)', { entryIds: [...counts.keys()] })
      .groupBy('f.changelog_entry_id')
      .getRawMany<{ entry_id: string; count: string | number }>();
    for (const row of rows) counts.set(row.entry_id, Number(row.count));
    return counts;
  }

  private async publishedEntryOrNull(em: EntityManager, projectId: string, entryId: string | null | undefined): Promise<string | null> {
    // Only something shaped like an entry id can be one; anything else is dropped without a query.
    if (!entryId || !isId('ce', entryId)) return null;
    // Registered by the changelog module at start; missing only when the app is wired wrong.
    if (!this.changelogEntries) throw new Error('No changelog entry check: ChangelogModule registers one at start');
    return (await this.changelogEntries(em, projectId, entryId)) ? entryId : null;
  }

  /** See the module comment: only a server (secret key) may link an email to a user id. */
  private async recordSubmitter(em: EntityManager, projectId: string, row: FeedbackEntity, linkIdentity: boolean): Promise<void> {
    const { email, userId } = row;
    if (linkIdentity && (email || userId)) {
      await this.contacts.upsertContact(em, projectId, { email, userId, stage: 'lead' });
      return;
    }
    if (email) await this.contacts.upsertContact(em, projectId, { email, stage: 'lead' });
    if (userId) await this.contacts.upsertContact(em, projectId, { userId, stage: 'lead' });
  }
}
