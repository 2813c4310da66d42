import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/http/page-query.dto';
import { CharLength } from '../../common/validation/char-length';
import { IsDateTime } from '../../common/validation/date-time';
import { FEEDBACK_CLASSIFICATIONS, type FeedbackClassification } from '../classifier/classify-feedback';
import { FEEDBACK_LIMITS } from '../feedback-limits';

/** Filters of `GET /v1/feedback`; they combine with AND. */
export class ListFeedbackQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    example: 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
    maxLength: 64,
    description: 'Only feedback sent with this changelog entry attached.',
  })
  @IsOptional()
  @CharLength(1, 64)
  changelog_entry_id?: string;

  @ApiPropertyOptional({ enum: FEEDBACK_CLASSIFICATIONS, description: 'Only feedback with this classification.' })
  @IsOptional()
  @IsIn(FEEDBACK_CLASSIFICATIONS)
  classification?: FeedbackClassification;

  @ApiPropertyOptional({ example: 'user_42', maxLength: FEEDBACK_LIMITS.userIdMax, description: 'Only feedback from this user id.' })
  @IsOptional()
  @CharLength(1, FEEDBACK_LIMITS.userIdMax)
  user_id?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-11-20T10:00:00Z',
    description: 'Only feedback created at or after this time (ISO 8601 with `Z` or a numeric offset).',
  })
  @IsOptional()
  @IsDateTime()
  since?: string;
}
