import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { findUnsafeMarkdownLinks } from '../../common/markdown/markdown-links';
import { codePointLength } from '../../common/validation/char-length';
import { Database } from '../../infra/database/database.service';
import type { ProjectRef } from '../../projects/project-ref';
import { sortCommits } from './commit-sorter';
import { commitsProblem, DRAFT_LIMITS } from './draft-input';
import { draftBody, draftCategory, draftTitle } from './draft-markdown';
import { EntriesService } from '../entries/entries.service';
import type { CreateDraftDto } from './dto/create-draft.dto';
import { type DraftDto, toDraftDto, toDraftReply } from './dto/draft.dto';
import type { WithStatus } from '../../common/http/reply';
import { idempotently } from '../../idempotency/idempotent-call';

/**
 * Changelog drafts from commits (spec: Endpoints → Changelog → Drafts): `POST /v1/changelog/drafts`
 * and the `changelog:draft` CLI command run this one method. No AI runs here: commits are sorted
 * by rules (commit-sorter.ts) and written as markdown (draft-markdown.ts).
 *
 * Choices the spec leaves open:
 * - Input: 1 to 1000 commits, each a string of 1 to 10000 characters with some non-blank text
 *   (VALIDATION_ERROR, `param` `commits.<index>`, the dotted path every array item error uses);
 *   `version` 1 to 64 characters, stored on the entry as sent.
 * - Sorting (see commit-sorter.ts): Security is the `security` type or `fix` with a `security`
 *   scope; anything breaking goes to Breaking changes whatever its type; dependency bumps count as
 *   housekeeping. Sections are ordered Breaking changes, Security, New, Improved, Fixed, Other
 *   changes, so what readers must act on comes first. `skipped` is the number left out; `skipped_by_kind` splits it by kind.
 * - Text (see draft-markdown.ts): title "Version <version>" or "Release notes <UTC date>"; bullets
 *   `**scope:** subject` with the short hash in code when the line had one; commit text is
 *   markdown-escaped, so a subject cannot make a link (javascript: or any other), an image or HTML.
 * - `dry_run` true answers 200 with `entry` null and writes nothing, even when every commit was
 *   skipped. Otherwise one transaction inserts the entry with status `draft` (never published,
 *   no event, no email, not counted toward the Free cap) and answers 201 with its owner view.
 * - Nothing to draft (every commit skipped) without `dry_run`: VALIDATION_ERROR on `commits`; an
 *   empty entry would only have to be deleted. A draft body over the entry limit (50000
 *   characters) is VALIDATION_ERROR on `commits`, dry run or not, so a preview predicts the real call.
 * - No Idempotency-Key: a repeated call makes a second draft, which is visible and harmless; use
 *   `dry_run` to preview.
 */
@Injectable()
export class DraftsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly entries: EntriesService,
  ) {}

  async draftFromCommits(project: ProjectRef, input: CreateDraftDto): Promise<WithStatus<DraftDto>> {
    const problem = commitsProblem(input.commits);
    if (problem) throw new ApiError('VALIDATION_ERROR', problem.message, { param: problem.param });
    const commits = input.commits as string[];
    const sorted = sortCommits(commits);
    const now = this.clock.now();
    const text = { title: draftTitle(input.version, now), body_markdown: draftBody(sorted), category: draftCategory(sorted) };
    assertStorableBody(text.body_markdown);
    if (input.dry_run !== true && sorted.sections.length === 0) {
      throw new ApiError(
        'VALIDATION_ERROR',
        `Nothing to draft: all ${commits.length} commits were skipped (housekeeping, merges, reverts or version bumps).`,
        {
          param: 'commits',
          remediation:
            'Send the commits of a range with user-facing changes (feat, fix, perf, …), or set dry_run to see how they are sorted.',
        },
      );
    }
    // A dry run goes through the transaction too, so an Idempotency-Key replays it like any answer.
    return this.db.transaction((em) =>
      idempotently(em, input, async () => {
        if (input.dry_run === true) return toDraftReply(toDraftDto(text, sorted, null));
        const entry = await this.entries.insertDraft(em, project, {
          title: text.title,
          bodyMarkdown: text.body_markdown,
          version: input.version ?? null,
          category: text.category,
        });
        return toDraftReply(toDraftDto(text, sorted, entry));
      }),
    );
  }
}

function assertStorableBody(body: string): void {
  const length = codePointLength(body);
  if (length > DRAFT_LIMITS.bodyMax) {
    throw new ApiError(
      'VALIDATION_ERROR',
      `The draft body would be ${length} characters; an entry holds at most ${DRAFT_LIMITS.bodyMax}.`,
      {
        param: 'commits',
        remediation: 'Draft fewer commits at a time (for example one tag range per call).',
      },
    );
  }
  // Commit text is escaped, so this never fires; it guards the rule every stored body obeys.
  const unsafe = findUnsafeMarkdownLinks(body);
  if (unsafe.length > 0)
    throw new ApiError('VALIDATION_ERROR', `The draft body has an unsafe link: ${unsafe[0].reason}.`, { param: 'commits' });
}
