import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { EndUserFieldsDto } from '../../../auth/dto/end-user.dto';
import { idPattern } from '../../../common/ids/ids';
import { CharLength } from '../../../common/validation/char-length';
import { IsDateTime } from '../../../common/validation/date-time';
import { SLUG_PATTERN } from '../../../projects/slugs';
import { ENTRY_CATEGORIES, type EntryCategory } from '../../entities/changelog-entry.entity';
import { SEEN_MAX_ENTRIES } from '../../public/dto/page-interaction.dto';
import { PUBLIC_QUERY_MAX } from '../../public/dto/public-changelog-query.dto';

/** Spec: Limits → widget `limit` max 50. */
const WIDGET_MAX_LIMIT = 50;
export const WIDGET_DEFAULT_LIMIT = 20;
const CLIENT_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
const CLIENT_ID_MESSAGE = 'client_id must be 8 to 64 letters, digits, "_" or "-" (a random id the widget keeps in the browser)';
const CLIENT_ID_DOC = {
  example: 'k3J9xQ2mVb7TzL0p',
  description:
    'A random id the widget creates and keeps in the browser (8 to 64 letters, digits, _ or -): the person for reactions when there is no verified user_id.',
};

/** Who reads: a verified `user_id` (+ `user_hash`), else the browser's `client_id`, else nobody in particular. */
export class WidgetReaderDto extends EndUserFieldsDto {
  @ApiPropertyOptional(CLIENT_ID_DOC)
  @IsOptional()
  @Matches(CLIENT_ID_PATTERN, { message: CLIENT_ID_MESSAGE })
  client_id?: string;
}

/** `GET /v1/changelog/widget/entries`. Filters combine with AND and apply to pinned entries too. */
export class WidgetEntriesQueryDto extends WidgetReaderDto {
  @ApiPropertyOptional({
    example: 'dark mode',
    maxLength: PUBLIC_QUERY_MAX,
    description: 'Title or markdown body contains this text, ignoring case.',
  })
  @IsOptional()
  @CharLength(1, PUBLIC_QUERY_MAX)
  q?: string;

  @ApiPropertyOptional({ example: 'api', description: 'Only entries with the label of this slug; an unknown slug lists nothing.' })
  @IsOptional()
  @Matches(SLUG_PATTERN, { message: 'label must be a label slug: 1 to 40 lowercase letters, digits and hyphens' })
  label?: string;

  @ApiPropertyOptional({ enum: ENTRY_CATEGORIES, description: 'Only entries of this category.' })
  @IsOptional()
  @IsIn(ENTRY_CATEGORIES)
  category?: EntryCategory;

  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: WIDGET_MAX_LIMIT,
    default: WIDGET_DEFAULT_LIMIT,
    description: 'Entries per page (pinned ones aside).',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(WIDGET_MAX_LIMIT)
  limit?: number;
}

/** `GET /v1/changelog/widget/unseen`. */
export class WidgetUnseenQueryDto extends WidgetReaderDto {
  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-11-20T10:00:00Z',
    description:
      "An anonymous browser's last visit: count entries published after it. Without a user id or `since`, the last 90 days count.",
  })
  @IsOptional()
  @IsDateTime()
  since?: string;
}

/** `POST /v1/changelog/widget/seen`. */
export class WidgetSeenDto extends WidgetReaderDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: SEEN_MAX_ENTRIES,
    example: ['ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M'],
    description: 'Entries the widget showed: each counts a view; with a verified user_id they become seen by that person on every device.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SEEN_MAX_ENTRIES)
  @Matches(idPattern('ce'), { each: true, message: 'entry_ids must hold changelog entry ids (ce_…)' })
  entry_ids: string[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: SEEN_MAX_ENTRIES,
    example: ['ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M'],
    description: 'Of those, the ones new to this browser (anonymous readers); ignored with a verified user_id, whose reads are known.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SEEN_MAX_ENTRIES)
  @Matches(idPattern('ce'), { each: true, message: 'first_time_ids must hold changelog entry ids (ce_…)' })
  first_time_ids?: string[];
}

/** `POST` and `DELETE /v1/changelog/widget/entries/{id}/reactions`. */
export class WidgetReactionDto extends WidgetReaderDto {
  @ApiProperty({ example: 'celebrate', description: "One of the project's `reaction_set`." })
  @IsString()
  @MaxLength(16)
  reaction: string;
}

/** `POST /v1/changelog/widget/entries/{id}/click`. */
export class WidgetClickDto extends WidgetReaderDto {}
