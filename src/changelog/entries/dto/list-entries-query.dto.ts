import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../../common/http/page-query.dto';
import { CharLength } from '../../../common/validation/char-length';
import { ENTRY_CATEGORIES, ENTRY_STATUSES, type EntryCategory, type EntryStatus } from '../../entities/changelog-entry.entity';

/** Filters of `GET /v1/changelog/entries`; they combine with AND. */
export class ListEntriesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: ENTRY_STATUSES,
    description: 'Only entries in this status (a publishable key sees published entries only).',
  })
  @IsOptional()
  @IsIn(ENTRY_STATUSES)
  status?: EntryStatus;

  @ApiPropertyOptional({ enum: ENTRY_CATEGORIES, description: 'Only entries of this category.' })
  @IsOptional()
  @IsIn(ENTRY_CATEGORIES)
  category?: EntryCategory;

  @ApiPropertyOptional({ example: 'export', maxLength: 40, description: 'Only entries with the label of this slug.' })
  @IsOptional()
  @CharLength(1, 40)
  label?: string;

  @ApiPropertyOptional({ example: 'pdf', maxLength: 200, description: 'Case-insensitive text in the title or the body.' })
  @IsOptional()
  @CharLength(1, 200)
  q?: string;
}
