import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsInt, IsOptional, Max, MaxLength, Min } from 'class-validator';

export const MAX_INVITE_WAVE = 500;

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

  @ApiPropertyOptional({ example: 'ada@example.com', maxLength: 254, description: 'Invite this one person (case-insensitive).' })
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  specific_email?: string;
}
