import { ApiProperty } from '@nestjs/swagger';
import { ENTRY_CATEGORIES, type EntryCategory } from '../../entities/changelog-entry.entity';
import type { PublicEntryRow } from '../public-changelog.queries';

/** Public changelog entry (spec): exactly these seven fields, all required. */
export class PublicChangelogEntryDto {
  @ApiProperty({ example: 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^ce_[0-9A-HJKMNP-TV-Z]{26}$' })
  id: string;

  @ApiProperty({ example: 'Dark mode', minLength: 1, maxLength: 200 })
  title: string;

  @ApiProperty({ example: 'The dashboard now follows your system theme.', minLength: 1, maxLength: 50000 })
  body_markdown: string;

  @ApiProperty({ type: 'string', nullable: true, example: '2.4.0', maxLength: 64 })
  version: string | null;

  @ApiProperty({ enum: ENTRY_CATEGORIES, example: 'feature' })
  category: EntryCategory;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, example: '2026-11-20T10:00:00.000Z' })
  published_at: string | null;

  @ApiProperty({ format: 'uri', example: 'https://launch.example.com/changelog/acme/ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  public_url: string;
}

export function toPublicChangelogEntryDto(row: PublicEntryRow, publicUrl: string): PublicChangelogEntryDto {
  return {
    id: row.id,
    title: row.title,
    body_markdown: row.bodyMarkdown,
    version: row.version,
    category: row.category,
    published_at: row.publishedAt ? row.publishedAt.toISOString() : null,
    public_url: publicUrl,
  };
}
