import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, MaxLength } from 'class-validator';

export class ResendConfirmationDto {
  @ApiProperty({ example: 'ada@example.com', maxLength: 254, description: 'Case-insensitive.' })
  @IsEmail()
  @MaxLength(254)
  email: string;
}

export const RESEND_OUTCOMES = ['sent', 'already_confirmed', 'unsubscribed'] as const;
export type ResendOutcome = (typeof RESEND_OUTCOMES)[number];

export class ResendConfirmationResultDto {
  @ApiProperty({ example: 'ada@example.com', description: 'Lower-cased.' })
  email: string;

  @ApiProperty({
    enum: RESEND_OUTCOMES,
    example: 'sent',
    description: '`sent`: a new confirmation email was queued; `already_confirmed` and `unsubscribed`: nothing was sent.',
  })
  status: ResendOutcome;
}
