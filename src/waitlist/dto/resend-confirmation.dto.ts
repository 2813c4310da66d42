import { ApiProperty } from '@nestjs/swagger';
import { EmailField } from '../../common/validation/email-field';

export class ResendConfirmationDto {
  @EmailField({ description: 'Case-insensitive.' })
  email: string;
}

const RESEND_OUTCOMES = ['sent', 'already_confirmed', 'unsubscribed'] as const;
type ResendOutcome = (typeof RESEND_OUTCOMES)[number];

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
