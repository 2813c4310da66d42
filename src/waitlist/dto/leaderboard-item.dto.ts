import { ApiProperty } from '@nestjs/swagger';

/** Spec: Leaderboard item. */
export class LeaderboardItemDto {
  @ApiProperty({ example: 1, minimum: 1 })
  rank: number;

  @ApiProperty({ example: 'a***@e***.com', description: 'First character of the name and of the domain, top-level domain kept.' })
  masked_email: string;

  @ApiProperty({ example: 12, minimum: 0 })
  referral_count: number;
}
