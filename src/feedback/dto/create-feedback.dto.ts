import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { CharLength } from '../../common/validation/char-length';
import { EmailField } from '../../common/validation/email-field';
import { IsHttpUrl } from '../../common/validation/http-url';
import { CATEGORY_HINTS, type CategoryHint } from '../classifier/classify-feedback';
import { FEEDBACK_LIMITS } from '../feedback-limits';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Feedback input (spec: Feedback input). Only `feedback_text` is required. */
export class CreateFeedbackDto {
  @ApiProperty({
    example: 'The export button crashes the app every time I click it.',
    minLength: FEEDBACK_LIMITS.textMin,
    maxLength: FEEDBACK_LIMITS.textMax,
    description: 'What the person wrote. Leading and trailing whitespace is removed before the length check (10 to 2000 characters).',
  })
  @Transform(trimmed)
  @CharLength(FEEDBACK_LIMITS.textMin, FEEDBACK_LIMITS.textMax)
  feedback_text: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'user_42',
    minLength: 1,
    maxLength: FEEDBACK_LIMITS.userIdMax,
    description: "The product's own id for the person, if signed in.",
  })
  @IsOptional()
  @CharLength(1, FEEDBACK_LIMITS.userIdMax)
  user_id?: string | null;

  @EmailField({
    optional: true,
    nullable: true,
    description: 'Where to answer. Stored trimmed and lower-cased; never echoed by this call nor sent in `feedback.created`.',
  })
  email?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'uri',
    example: 'https://app.example.com/settings/export',
    maxLength: FEEDBACK_LIMITS.pageUrlMax,
    description: 'The page the feedback was sent from: an absolute http(s) URL.',
  })
  @IsOptional()
  @CharLength(1, FEEDBACK_LIMITS.pageUrlMax)
  @IsHttpUrl({ allow_underscores: true })
  page_url?: string | null;

  @ApiPropertyOptional({
    enum: [...CATEGORY_HINTS, null],
    nullable: true,
    example: 'bug',
    description: 'What the person says it is (a strong signal for the classifier, not the final word).',
  })
  @IsOptional()
  @IsIn(CATEGORY_HINTS)
  category_hint?: CategoryHint | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 1, maximum: 5, example: 4, description: 'A 1 to 5 star rating.' })
  @IsOptional()
  @IsInt()
  @Min(FEEDBACK_LIMITS.ratingMin)
  @Max(FEEDBACK_LIMITS.ratingMax)
  rating?: number | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
    description:
      "The changelog entry the feedback is about. An id that is not one of the project's published entries is dropped and the feedback kept.",
  })
  @IsOptional()
  @IsString()
  changelog_entry_id?: string | null;
}
