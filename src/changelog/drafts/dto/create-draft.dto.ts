import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsOptional } from 'class-validator';
import { CharLength } from '../../../common/validation/char-length';
import { DRAFT_LIMITS } from '../draft-input';

/** `POST /v1/changelog/drafts` (spec: Endpoints → Changelog → Drafts). */
export class CreateDraftDto {
  @ApiProperty({
    type: 'array',
    items: { type: 'string', minLength: DRAFT_LIMITS.commitMin, maxLength: DRAFT_LIMITS.commitMax },
    minItems: DRAFT_LIMITS.commitsMin,
    maxItems: DRAFT_LIMITS.commitsMax,
    example: ['a1b2c3d\tfeat(widget): add dark mode', 'fix: stop double emails', 'chore: bump deps'],
    description:
      'Commit messages, newest first as `git log` prints them: a subject line, or a whole message with body and footers ' +
      '(`BREAKING CHANGE:` / `BREAKING-CHANGE:`). A line may start with the commit hash and a tab (`git log --format=%H%x09%s`) ' +
      'or a space (`git log --oneline`). A commit that is not a string of 1 to 10000 characters answers VALIDATION_ERROR ' +
      'with `param` `commits.<index>`.',
  })
  @IsArray()
  @ArrayMinSize(DRAFT_LIMITS.commitsMin)
  @ArrayMaxSize(DRAFT_LIMITS.commitsMax)
  commits: unknown[];

  @ApiPropertyOptional({
    example: '1.4.0',
    minLength: 1,
    maxLength: DRAFT_LIMITS.versionMax,
    description: 'Stored on the entry; the title becomes "Version 1.4.0". Without it the title is dated.',
  })
  @IsOptional()
  @CharLength(1, DRAFT_LIMITS.versionMax)
  version?: string;

  @ApiPropertyOptional({
    example: false,
    default: false,
    description: 'true: return the draft without creating anything (200). false: create a draft entry (201).',
  })
  @IsOptional()
  @IsBoolean()
  dry_run?: boolean;
}
