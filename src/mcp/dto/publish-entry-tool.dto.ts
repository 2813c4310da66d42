import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsDateTime } from '../../common/validation/date-time';

/**
 * `publish_changelog_entry`'s own field. REST publishes with PATCH `status: "published"` or
 * `scheduled_at`; the tool names the schedule `publish_at` and checks it with the same validator.
 */
export class PublishEntryToolDto {
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    example: '2026-12-01T09:00:00Z',
    description: 'Schedule the entry for this time (in the future) instead of publishing now.',
  })
  @IsOptional()
  @IsDateTime()
  publish_at?: string;
}
