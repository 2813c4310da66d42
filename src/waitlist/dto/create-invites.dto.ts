import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { EmailField } from '../../common/validation/email-field';

const MAX_INVITE_WAVE = 500;

/** Exactly one of `count` and `specific_email` (both or neither answer VALIDATION_ERROR). */
export class CreateInvitesDto {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_INVITE_WAVE,
    example: 50,
    description: 'Invite the next N waiting people, first in first out.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_INVITE_WAVE)
  count?: number;

  @EmailField({ optional: true, description: 'Invite this one person (case-insensitive).' })
  specific_email?: string;
}
