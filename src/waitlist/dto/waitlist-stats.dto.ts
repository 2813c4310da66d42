import { ApiProperty } from '@nestjs/swagger';
import { referralConversionRate } from '../referral';
import type { TopReferrerRow, WaitlistTotals } from '../waitlist.queries';

export class TopReferrerDto {
  @ApiProperty({ example: 'ws_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^ws_[0-9A-HJKMNP-TV-Z]{26}$' })
  signup_id: string;

  @ApiProperty({ example: 'ada@example.com' })
  email: string;

  @ApiProperty({ example: 12, minimum: 0 })
  referral_count: number;
}

/** Spec: Waitlist stats. */
export class WaitlistStatsDto {
  @ApiProperty({ example: 1200, minimum: 0, description: 'Every signup, whatever its status.' })
  total_signups: number;

  @ApiProperty({ example: 900, minimum: 0, description: 'Signups that clicked their confirmation link.' })
  confirmed_count: number;

  @ApiProperty({ example: 300, minimum: 0, description: 'Signups that were ever invited (also when they unsubscribed later).' })
  invited_count: number;

  @ApiProperty({ example: 400, minimum: 0, description: 'Signups that joined with a credited referral code.' })
  via_referral_count: number;

  @ApiProperty({
    example: 0.3333,
    minimum: 0,
    maximum: 1,
    description: '`via_referral_count / total_signups`, rounded to 4 decimals; 0 on an empty list.',
  })
  referral_conversion_rate: number;

  @ApiProperty({ type: [TopReferrerDto], description: 'Up to 10 signups with the most referrals (at least one), ties by earliest signup.' })
  top_referrers: TopReferrerDto[];
}

function toTopReferrerDto(row: TopReferrerRow): TopReferrerDto {
  return { signup_id: row.id, email: row.email, referral_count: row.referralCount };
}

export function toWaitlistStatsDto(totals: WaitlistTotals): WaitlistStatsDto {
  return {
    total_signups: totals.total,
    confirmed_count: totals.confirmed,
    invited_count: totals.invited,
    via_referral_count: totals.referred,
    referral_conversion_rate: referralConversionRate(totals.referred, totals.total),
    top_referrers: totals.topReferrers.map(toTopReferrerDto),
  };
}
