import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CharLength } from '../../../common/validation/char-length';
import { IsDateTime } from '../../../common/validation/date-time';
import { ENTRY_CATEGORIES, type EntryCategory } from '../../entities/changelog-entry.entity';
import { ENTRY_LIMITS } from '../entry-fields';
import { EntryFieldsInputDto } from './entry-fields-input.dto';

/** Create input: a draft (`status: "draft"`), a scheduled entry (`scheduled_at`), or published now. */
export class CreateEntryDto extends EntryFieldsInputDto {
  @ApiProperty({ maxLength: ENTRY_LIMITS.titleMax, example: 'Export to PDF', description: 'Trimmed.' })
  @CharLength(1, ENTRY_LIMITS.titleMax)
  title: string;

  @ApiProperty({
    maxLength: ENTRY_LIMITS.bodyMax,
    example: 'You can now **export** any report as PDF.',
    description: 'Markdown, stored as sent.',
  })
  @CharLength(1, ENTRY_LIMITS.bodyMax)
  body_markdown: string;

  @ApiProperty({ enum: ENTRY_CATEGORIES, example: 'feature' })
  @IsIn(ENTRY_CATEGORIES)
  category: EntryCategory;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ENTRY_LIMITS.versionMax, example: '2.4.0' })
  @IsOptional()
  @CharLength(1, ENTRY_LIMITS.versionMax)
  version?: string | null;

  @ApiPropertyOptional({ enum: ['draft'], example: 'draft', description: 'Send "draft" to keep the entry unpublished.' })
  @IsOptional()
  @IsIn(['draft'])
  status?: 'draft';

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'date-time',
    example: '2026-12-01T09:00:00Z',
    description: 'Publish at this time (in the future) instead of now.',
  })
  @IsOptional()
  @IsDateTime()
  scheduled_at?: string | null;
}
