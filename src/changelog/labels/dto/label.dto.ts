import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { CharLength } from '../../../common/validation/char-length';
import { LABEL_COLOURS, type LabelColour, type ChangelogLabelEntity } from '../../entities/changelog-label.entity';
import { LABEL_SLUG_PATTERN } from '../label-slug';

/** A label (spec: Label: name, slug, colour; plus its id and creation time). */
export class LabelDto {
  @ApiProperty({ example: 'lbl_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^lbl_[0-9A-HJKMNP-TV-Z]{26}$' })
  id: string;

  @ApiProperty({ maxLength: 50, example: 'Export' })
  name: string;

  @ApiProperty({ pattern: LABEL_SLUG_PATTERN.source, example: 'export' })
  slug: string;

  @ApiProperty({ enum: LABEL_COLOURS, example: 'blue' })
  colour: LabelColour;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z' })
  created_at: string;
}

export class CreateLabelDto {
  @ApiProperty({ maxLength: 50, example: 'Export', description: 'Trimmed.' })
  @CharLength(1, 50)
  name: string;

  @ApiPropertyOptional({ pattern: LABEL_SLUG_PATTERN.source, example: 'export', description: 'Made from the name when left out.' })
  @IsOptional()
  @Matches(LABEL_SLUG_PATTERN, { message: 'slug must be 1 to 40 lowercase letters, digits and hyphens' })
  slug?: string;

  @ApiPropertyOptional({ enum: LABEL_COLOURS, default: 'gray', example: 'blue' })
  @IsOptional()
  @IsIn(LABEL_COLOURS)
  colour?: LabelColour;
}

export class UpdateLabelDto {
  @ApiPropertyOptional({ maxLength: 50, example: 'Exports' })
  @IsOptional()
  @CharLength(1, 50)
  name?: string;

  @ApiPropertyOptional({ pattern: LABEL_SLUG_PATTERN.source, example: 'exports', description: 'Entries and subscribers keep the label.' })
  @IsOptional()
  @Matches(LABEL_SLUG_PATTERN, { message: 'slug must be 1 to 40 lowercase letters, digits and hyphens' })
  slug?: string;

  @ApiPropertyOptional({ enum: LABEL_COLOURS, example: 'green' })
  @IsOptional()
  @IsIn(LABEL_COLOURS)
  colour?: LabelColour;
}

export function toLabelDto(row: ChangelogLabelEntity): LabelDto {
  return { id: row.id, name: row.name, slug: row.slug, colour: row.colour, created_at: row.createdAt.toISOString() };
}
