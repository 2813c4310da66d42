import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiNullableRef } from '../../../common/http/api-docs';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ENTRY_STATUSES, type EntryStatus } from '../../entities/changelog-entry.entity';
import type { ReactionName } from '../../shared/reaction-set';

const STATS_MAX_LIMIT = 50;
export const STATS_DEFAULT_LIMIT = 10;

/** The numbers that need Indie or a higher plan (spec: Plan gates): null below it, named in `meta.locked`. */
export const INSIGHT_FIELDS = ['readers', 'cta_clicks', 'feedback'] as const;

export const STATS_META = {
  locked: {
    type: 'array',
    items: { type: 'string', enum: INSIGHT_FIELDS },
    description: 'Present on the Free plan: the numbers that are null until an upgrade to Indie.',
  },
};

export class ReadersDto {
  @ApiProperty({ example: 120, description: 'People with a verified user id who were shown it.' })
  signed_in: number;

  @ApiProperty({ example: 340, description: 'Browsers without a user id that said it was new to them.' })
  anonymous: number;
}

/** Per-entry numbers (spec: Changelog → Per-entry numbers). */
@ApiExtraModels(ReadersDto)
export class EntryStatsDto {
  @ApiProperty({ example: 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  entry_id: string;

  @ApiProperty({ example: 'Dark mode' })
  title: string;

  @ApiProperty({ enum: ENTRY_STATUSES, example: 'published' })
  status: EntryStatus;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, example: '2026-11-20T10:00:00.000Z' })
  published_at: string | null;

  @ApiProperty({ example: 1520, description: 'Times shown in the widget or on the hosted page.' })
  views: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer', minimum: 1 },
    example: { like: 12, celebrate: 3 },
    description: 'People per reaction (one per person); reactions nobody holds are left out.',
  })
  reactions: Partial<Record<ReactionName, number>>;

  @ApiNullableRef(ReadersDto, { description: 'Indie and up; null on Free.' })
  readers: ReadersDto | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 41, description: "Presses of the entry's button. Indie and up; null on Free." })
  cta_clicks: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 4,
    description: 'Feedback sent with this entry attached. Indie and up; null on Free.',
  })
  feedback: number | null;
}

/** `GET /v1/changelog/stats`. */
export class LatestStatsQueryDto {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: STATS_MAX_LIMIT,
    default: STATS_DEFAULT_LIMIT,
    description: 'How many of the latest published entries.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(STATS_MAX_LIMIT)
  limit?: number;
}
