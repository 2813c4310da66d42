import { ApiProperty } from '@nestjs/swagger';
import { SIGNUP_STATUSES, type SignupStatus, type WaitlistSignupEntity } from '../entities/waitlist-signup.entity';

export class SignupSourceViewDto {
  @ApiProperty({ type: String, nullable: true, example: 'https://news.example.com/launches' })
  referrer: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'newsletter' })
  utm_source: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'email' })
  utm_medium: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'launch-week' })
  utm_campaign: string | null;

  @ApiProperty({ type: String, nullable: true, example: '/pricing' })
  landing_path: string | null;
}

/** A signup as the owner sees it in the list. */
export class SignupDto {
  @ApiProperty({ example: 'ws_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^ws_[0-9A-HJKMNP-TV-Z]{26}$' })
  signup_id: string;

  @ApiProperty({ example: 'ada@example.com', description: 'Lower-cased.' })
  email: string;

  @ApiProperty({ example: 42, minimum: 1 })
  position: number;

  @ApiProperty({
    enum: SIGNUP_STATUSES,
    example: 'waiting',
    description: '`waiting` in line, `invited` by an invite wave, `unsubscribed` through the link in an email.',
  })
  status: SignupStatus;

  @ApiProperty({ example: true, description: 'Double opt-in: the person clicked the confirmation link.' })
  confirmed: boolean;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-11-20T10:05:00.000Z',
    description: 'When the person first clicked the confirmation link; null until then.',
  })
  confirmed_at: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When an invite wave invited the person; null until then.',
  })
  invited_at: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the person unsubscribed; null while subscribed.',
  })
  unsubscribed_at: string | null;

  @ApiProperty({ example: 'K7M2Q9XA', pattern: '^[A-Za-z0-9]{8}$' })
  referral_code: string;

  @ApiProperty({ example: 3, minimum: 0, description: 'People who joined with this code.' })
  referral_count: number;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'ws_01JD3Z4Q9X8V7T6S5R4Q3P2N1A',
    description: 'The signup whose code brought this person.',
  })
  referred_by: string | null;

  @ApiProperty({ type: SignupSourceViewDto, description: 'Where the person came from, as sent at signup; null for what was not sent.' })
  source: SignupSourceViewDto;

  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    example: { company: 'Analytical Engines' },
  })
  metadata: Record<string, string | number | boolean>;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z', description: 'When the person signed up (or was imported).' })
  created_at: string;
}

export function toSignupDto(row: WaitlistSignupEntity): SignupDto {
  return {
    signup_id: row.id,
    email: row.email,
    position: row.position,
    status: row.status,
    confirmed: row.confirmedAt !== null,
    confirmed_at: row.confirmedAt?.toISOString() ?? null,
    invited_at: row.invitedAt?.toISOString() ?? null,
    unsubscribed_at: row.unsubscribedAt?.toISOString() ?? null,
    referral_code: row.referralCode,
    referral_count: row.referralCount,
    referred_by: row.referredBySignupId,
    source: {
      referrer: row.source.referrer ?? null,
      utm_source: row.source.utm_source ?? null,
      utm_medium: row.source.utm_medium ?? null,
      utm_campaign: row.source.utm_campaign ?? null,
      landing_path: row.source.landing_path ?? null,
    },
    metadata: row.metadata,
    created_at: row.createdAt.toISOString(),
  };
}
