import { ApiProperty } from '@nestjs/swagger';
import type { PlanName } from '../../projects/plans';
import type { WaitlistSignupEntity } from '../entities/waitlist-signup.entity';
import { SIGNUP_RESULT_PLANS, signupResultPlan } from '../referral';

/** The answer to a signup (spec: Waitlist signup result). */
export class SignupResultDto {
  @ApiProperty({ example: 'ws_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^ws_[0-9A-HJKMNP-TV-Z]{26}$' })
  signup_id: string;

  @ApiProperty({ example: 42, minimum: 1, description: '1-based place in line, fixed at signup.' })
  position: number;

  @ApiProperty({ example: 'K7M2Q9XA', pattern: '^[A-Za-z0-9]{8}$', description: "This person's own code to share." })
  referral_code: string;

  @ApiProperty({
    format: 'uri',
    example: 'https://launch.example.com/w/acme?ref=K7M2Q9XA',
    description: '`{base_url}/w/{project_slug}?ref={code}`',
  })
  referral_link: string;

  @ApiProperty({ example: true, description: 'True when `referrer_code` named a signup of this project, which was credited.' })
  referrer_credited: boolean;

  @ApiProperty({ example: true, description: 'True when the double opt-in confirmation email was queued.' })
  confirmation_email_sent: boolean;

  @ApiProperty({
    example: false,
    description: 'Always false in a 201 answer: an email already on the list answers 409 DUPLICATE_SIGNUP instead.',
  })
  already_registered: boolean;

  @ApiProperty({ enum: SIGNUP_RESULT_PLANS, example: 'indie', description: 'The project plan; plans above Builder report `builder`.' })
  project_plan: PlanName;
}

/** A new signup (a duplicate answers 409 instead, so `already_registered` is false here). */
export function toSignupResultDto(signup: WaitlistSignupEntity, referralLink: string, plan: PlanName): SignupResultDto {
  return {
    signup_id: signup.id,
    position: signup.position,
    referral_code: signup.referralCode,
    referral_link: referralLink,
    referrer_credited: signup.referredBySignupId !== null,
    confirmation_email_sent: true,
    already_registered: false,
    project_plan: signupResultPlan(plan),
  };
}
