import { ApiProperty } from '@nestjs/swagger';
import type { WaitlistSignupEntity } from '../entities/waitlist-signup.entity';

export class InvitedSignupDto {
  @ApiProperty({ example: 'ws_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^ws_[0-9A-HJKMNP-TV-Z]{26}$' })
  signup_id: string;

  @ApiProperty({ example: 'ada@example.com' })
  email: string;
}

export class InviteResultDto {
  @ApiProperty({ example: 50, minimum: 0, description: 'People invited by this wave; 0 when nobody was waiting.' })
  invited_count: number;

  @ApiProperty({ type: [InvitedSignupDto], description: 'Who was invited, in line order.' })
  invited: InvitedSignupDto[];
}

/** A wave's answer; its `invited` list is also the data of `waitlist.signups.invited`. */
export function toInviteResultDto(signups: readonly WaitlistSignupEntity[]): InviteResultDto {
  return { invited_count: signups.length, invited: signups.map((signup) => ({ signup_id: signup.id, email: signup.email })) };
}
