import { ApiProperty } from '@nestjs/swagger';
import type { WaitlistSignupEntity } from '../entities/waitlist-signup.entity';
import { maskEmail } from '../referral';

/** Spec: Leaderboard item. */
export class LeaderboardItemDto {
  @ApiProperty({ example: 1, minimum: 1 })
  rank: number;

  @ApiProperty({ example: 'a***@e***.com', description: 'First character of the name and of the domain, top-level domain kept.' })
  masked_email: string;

  @ApiProperty({ example: 12, minimum: 0 })
  referral_count: number;
}

/** `index`: the row's place in the ranked list, 0-based. */
export function toLeaderboardItemDto(row: Pick<WaitlistSignupEntity, 'email' | 'referralCount'>, index: number): LeaderboardItemDto {
  return { rank: index + 1, masked_email: maskEmail(row.email), referral_count: row.referralCount };
}
