import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { EndUserFieldsDto } from '../../../auth/dto/end-user.dto';
import { IsDateTime } from '../../../common/validation/date-time';

/** Spec: Limits → `inbox` limit up to 50 (default 20). */
const BELL_MAX_LIMIT = 50;
export const BELL_DEFAULT_LIMIT = 20;
/** A category as the sending side accepts it: a short lower-case name. */
export const CATEGORY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** `GET /v1/notifications/unread`: the list filters. */
export class UnreadQueryDto extends EndUserFieldsDto {
  @ApiPropertyOptional({ minimum: 1, maximum: BELL_MAX_LIMIT, default: BELL_DEFAULT_LIMIT, description: 'Items to return.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(BELL_MAX_LIMIT)
  limit?: number;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-11-20T10:00:00Z',
    description: 'Only notifications that showed after this time.',
  })
  @IsOptional()
  @IsDateTime()
  since?: string;

  @ApiPropertyOptional({ example: 'billing', description: 'Only this category (a short lower-case name).' })
  @IsOptional()
  @Matches(CATEGORY_PATTERN, { message: 'category must be a short lower-case name (a-z, 0-9, _ and -, at most 64 characters)' })
  category?: string;
}

/** `GET /v1/notifications/inbox`: the unread filters plus `archived=only`. */
export class InboxQueryDto extends UnreadQueryDto {
  @ApiPropertyOptional({ enum: ['only'], description: 'Only archived notifications; without it archived ones are left out.' })
  @IsOptional()
  @IsIn(['only'])
  archived?: 'only';
}

/** `GET /v1/notifications/unread/count`: the end user only. */
export class UnreadCountQueryDto extends EndUserFieldsDto {}
