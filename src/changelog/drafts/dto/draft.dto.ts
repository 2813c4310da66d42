import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiNullableRef } from '../../../common/http/api-docs';
import { WithStatus } from '../../../common/http/reply';
import { ENTRY_CATEGORIES, type EntryCategory } from '../../entities/changelog-entry.entity';
import { EntryDto } from '../../entries/dto/entry.dto';
import { DRAFT_SECTIONS, SECTION_TITLES, type DraftItem, type SortedCommits } from '../commit-sorter';

export class DraftItemDto {
  @ApiProperty({
    example: 'add dark mode',
    description: 'The description after `type(scope): `, or the whole subject line of a non-conventional commit. As written.',
  })
  subject: string;

  @ApiProperty({ type: String, nullable: true, example: 'widget' })
  scope: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'feat',
    description: 'The conventional type, lower-cased; null when the subject has none.',
  })
  type: string | null;

  @ApiProperty({ example: false, description: 'A `!` before the colon or a BREAKING CHANGE footer.' })
  breaking: boolean;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'The text of a BREAKING CHANGE / BREAKING-CHANGE footer.' })
  note: string | null;

  @ApiPropertyOptional({ example: 'a1b2c3d', description: 'The first 7 characters of the hash the line started with; absent when none.' })
  hash?: string;
}

export class DraftSectionDto {
  @ApiProperty({ enum: DRAFT_SECTIONS.map((key) => SECTION_TITLES[key]), example: 'New' })
  title: string;

  @ApiProperty({ type: [DraftItemDto], description: 'In the order the commits were sent.' })
  items: DraftItemDto[];
}

export class DraftSkippedDto {
  @ApiProperty({ type: 'integer', example: 2, description: '`chore`, `ci`, `build`, `test`, `style`, `docs`, and dependency bumps.' })
  housekeeping: number;

  @ApiProperty({ type: 'integer', example: 1, description: '`Merge branch …`, `Merge pull request …`.' })
  merges: number;

  @ApiProperty({ type: 'integer', example: 0, description: '`Revert "…"`, `revert: …`.' })
  reverts: number;

  @ApiProperty({ type: 'integer', example: 0, description: '`1.2.3`, `v1.2.3`, `chore(release): …`, `Release 1.2.3`, `Bump version …`.' })
  version_bumps: number;
}

@ApiExtraModels(EntryDto)
export class DraftDto {
  @ApiNullableRef(EntryDto, { description: 'The created draft entry (status `draft`, never published here); null on a dry run.' })
  entry: EntryDto | null;

  @ApiProperty({ example: 'Version 1.4.0', description: '"Version <version>" (without a leading v), else "Release notes <UTC date>".' })
  title: string;

  @ApiProperty({
    example: '## New\n\n- **widget:** add dark mode (`a1b2c3d`)\n\n## Fixed\n\n- stop double emails',
    description:
      'One `## <section>` per non-empty section; commit text escaped so it reads as plain text. Empty when every commit was skipped.',
  })
  body_markdown: string;

  @ApiProperty({
    enum: ENTRY_CATEGORIES,
    example: 'feature',
    description:
      '`breaking` if anything breaks, else `security`, else `feature` if anything is new, else `improvement` if anything improved, else `fix` if anything was fixed, else `improvement`.',
  })
  category: EntryCategory;

  @ApiProperty({
    type: [DraftSectionDto],
    description: 'Non-empty sections in this order: Breaking changes, Security, New, Improved, Fixed, Other changes.',
  })
  sections: DraftSectionDto[];

  @ApiProperty({ type: 'integer', example: 3, description: 'How many commits were left out of the draft (spec: Drafts).' })
  skipped: number;

  @ApiProperty({ type: DraftSkippedDto, description: 'The commits left out, by kind; they add up to `skipped`.' })
  skipped_by_kind: DraftSkippedDto;
}

function toDraftItemDto(item: DraftItem): DraftItemDto {
  return {
    subject: item.subject,
    scope: item.scope,
    type: item.type,
    breaking: item.breaking,
    note: item.note,
    ...(item.hash ? { hash: item.hash } : {}),
  };
}

export function toDraftDto(
  text: { title: string; body_markdown: string; category: EntryCategory },
  sorted: SortedCommits,
  entry: EntryDto | null,
): DraftDto {
  const { total, ...byKind } = sorted.skipped;
  return {
    entry,
    ...text,
    sections: sorted.sections.map((section) => ({ title: section.title, items: section.items.map(toDraftItemDto) })),
    skipped: total,
    skipped_by_kind: byKind,
  };
}

/** 201 when a draft entry was created, 200 for a dry run (both documented on the route). */
export function toDraftReply(draft: DraftDto): WithStatus<DraftDto> {
  return new WithStatus(draft, draft.entry ? 201 : 200);
}
