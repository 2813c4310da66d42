import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CharLength } from '../../../common/validation/char-length';
import { IsDateTime } from '../../../common/validation/date-time';
import { ENTRY_CATEGORIES, type EntryCategory } from '../../entities/changelog-entry.entity';
import { ENTRY_LIMITS } from '../entry-fields';
import { EntryFieldsInputDto } from './entry-fields-input.dto';

/**
 * Update input: every field optional. On a published entry only labels, pinned, expires_at and
 * announcement may change (anything else is CANNOT_EDIT_PUBLISHED; a field sent with its current
 * value is not a change).
 */
export class UpdateEntryDto extends EntryFieldsInputDto {
  @ApiPropertyOptional({ maxLength: ENTRY_LIMITS.titleMax, example: 'Export to PDF and CSV' })
  @IsOptional()
  @CharLength(1, ENTRY_LIMITS.titleMax)
  title?: string;

  @ApiPropertyOptional({ maxLength: ENTRY_LIMITS.bodyMax, example: 'You can now export any report as PDF or CSV.' })
  @IsOptional()
  @CharLength(1, ENTRY_LIMITS.bodyMax)
  body_markdown?: string;

  @ApiPropertyOptional({ enum: ENTRY_CATEGORIES, example: 'improvement' })
  @IsOptional()
  @IsIn(ENTRY_CATEGORIES)
  category?: EntryCategory;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ENTRY_LIMITS.versionMax, example: '2.4.1' })
  @IsOptional()
  @CharLength(1, ENTRY_LIMITS.versionMax)
  version?: string | null;

  @ApiPropertyOptional({ enum: ['published'], example: 'published', description: 'Publishes a draft or scheduled entry now.' })
  @IsOptional()
  @IsIn(['published'])
  status?: 'published';

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'On a draft or scheduled entry: a future time (re)schedules it, null makes it a draft again.',
  })
  @IsOptional()
  @IsDateTime()
  scheduled_at?: string | null;
}
