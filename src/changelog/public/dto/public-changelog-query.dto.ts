import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { SLUG_PATTERN } from '../../../projects/slugs';
import { CharLength } from '../../../common/validation/char-length';

/** The newest entries a public answer lists when no `limit` is given (feeds and pages always). */
export const PUBLIC_DEFAULT_LIMIT = 50;
const PUBLIC_MAX_LIMIT = 100;
export const PUBLIC_QUERY_MAX = 200;

/** Filters of `GET /public/changelog/{project_slug}`; they combine with AND. */
export class PublicChangelogQueryDto {
  @ApiPropertyOptional({
    example: 'api',
    maxLength: 40,
    description: 'Only entries with the label of this slug; an unknown slug lists nothing.',
  })
  @IsOptional()
  @Matches(SLUG_PATTERN, { message: 'label must be a label slug: 1 to 40 lowercase letters, digits and hyphens' })
  label?: string;

  @ApiPropertyOptional({
    example: 'dark mode',
    maxLength: PUBLIC_QUERY_MAX,
    description: 'Only entries whose title or markdown body contains this text, ignoring case.',
  })
  @IsOptional()
  @CharLength(1, PUBLIC_QUERY_MAX)
  q?: string;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: PUBLIC_MAX_LIMIT,
    default: PUBLIC_DEFAULT_LIMIT,
    description: 'How many of the newest entries (pinned first) to list.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(PUBLIC_MAX_LIMIT)
  limit?: number;
}
