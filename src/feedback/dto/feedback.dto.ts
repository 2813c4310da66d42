import { ApiProperty } from '@nestjs/swagger';
import { CATEGORY_HINTS, type CategoryHint, FEEDBACK_CLASSIFICATIONS, type FeedbackClassification } from '../classifier/classify-feedback';
import { SUMMARY_MAX_LENGTH } from '../classifier/summarize';
import { FeedbackEntity } from '../entities/feedback.entity';

/**
 * A feedback record without the submitter's email: the answer of `POST /v1/feedback` (which a
 * browser may call) and the items of `GET /v1/feedback`. `has_email` says whether one exists.
 */
export class FeedbackDto {
  @ApiProperty({ example: 'fb_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^fb_[0-9A-HJKMNP-TV-Z]{26}$' })
  feedback_id: string;

  @ApiProperty({ example: 'The export button crashes the app every time I click it.', description: 'Trimmed.' })
  feedback_text: string;

  @ApiProperty({
    enum: FEEDBACK_CLASSIFICATIONS,
    example: 'bug',
    description: 'Set on arrival by a deterministic classifier from the text, the category hint and the rating.',
  })
  classification: FeedbackClassification;

  @ApiProperty({
    minimum: 0,
    maximum: 1,
    example: 0.87,
    description: "The classifier's relative confidence in `classification` (two decimals); not a calibrated probability.",
  })
  confidence: number;

  @ApiProperty({ maxLength: SUMMARY_MAX_LENGTH, example: 'The export button crashes the app every time I click it.' })
  summary: string;

  @ApiProperty({ type: String, nullable: true, example: 'user_42' })
  user_id: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'https://app.example.com/settings/export', description: 'As sent.' })
  page_url: string | null;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 1, maximum: 5, example: 4 })
  rating: number | null;

  @ApiProperty({ enum: [...CATEGORY_HINTS, null], nullable: true, example: 'bug', description: 'The hint as sent.' })
  category_hint: CategoryHint | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The linked published changelog entry; null when none was sent or the id was not one of the project's published entries.",
  })
  changelog_entry_id: string | null;

  @ApiProperty({ example: true, description: 'Whether the submitter left an email (readable with GET /v1/feedback/{feedback_id}).' })
  has_email: boolean;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z' })
  created_at: string;
}

/** The full record, including the submitter's email: `GET /v1/feedback/{feedback_id}` (secret key). */
export class FeedbackDetailDto extends FeedbackDto {
  @ApiProperty({ type: String, nullable: true, example: 'ada@example.com', description: "The submitter's email, lower-cased." })
  email: string | null;
}

export function toFeedbackDto(row: FeedbackEntity): FeedbackDto {
  return {
    feedback_id: row.id,
    feedback_text: row.feedbackText,
    classification: row.classification,
    confidence: row.confidence,
    summary: row.summary,
    user_id: row.userId,
    page_url: row.pageUrl,
    rating: row.rating,
    category_hint: row.categoryHint,
    changelog_entry_id: row.changelogEntryId,
    has_email: row.email !== null,
    created_at: row.createdAt.toISOString(),
  };
}

export function toFeedbackDetailDto(row: FeedbackEntity): FeedbackDetailDto {
  return { ...toFeedbackDto(row), email: row.email };
}
