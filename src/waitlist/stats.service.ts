import { Injectable } from '@nestjs/common';
import { MoreThan, Not } from 'typeorm';
import { Database } from '../infra/database/database';
import type { ProjectRef } from '../projects/project-ref';
import { LeaderboardItemDto, toLeaderboardItemDto } from './dto/leaderboard-item.dto';
import { WaitlistStatsDto, toWaitlistStatsDto } from './dto/waitlist-stats.dto';
import { WaitlistSignupEntity } from './entities/waitlist-signup.entity';

export const LEADERBOARD_SIZE = 50;
export const TOP_REFERRERS_SIZE = 10;

/**
 * The owner's figures of the waitlist. Stats count every signup whatever its status; the
 * leaderboard leaves out people with no referrals and people who unsubscribed (it is meant to be
 * shown publicly, so emails are masked).
 */
@Injectable()
export class StatsService {
  constructor(private readonly db: Database) {}

  async getStats(project: ProjectRef): Promise<WaitlistStatsDto> {
    // An aggregate without GROUP BY always answers one row.
    const totals = (await this.db.manager
      .createQueryBuilder(WaitlistSignupEntity, 's')
      .select('COUNT(*)', 'total')
      .addSelect('COUNT(s.confirmed_at)', 'confirmed')
      .addSelect('COUNT(s.invited_at)', 'invited')
      .addSelect('COUNT(s.referred_by_signup_id)', 'referred')
      .where('s.project_id = :projectId', { projectId: project.id })
      .getRawOne()) as Record<'total' | 'confirmed' | 'invited' | 'referred', string>;
    const topReferrers = await this.db.manager.find(WaitlistSignupEntity, {
      where: { projectId: project.id, referralCount: MoreThan(0) },
      order: { referralCount: 'DESC', position: 'ASC' },
      take: TOP_REFERRERS_SIZE,
    });
    return toWaitlistStatsDto({
      total: Number(totals.total),
      confirmed: Number(totals.confirmed),
      invited: Number(totals.invited),
      referred: Number(totals.referred),
      topReferrers,
    });
  }

  async getLeaderboard(project: ProjectRef): Promise<LeaderboardItemDto[]> {
    const rows = await this.db.manager.find(WaitlistSignupEntity, {
      select: { id: true, email: true, referralCount: true, position: true },
      where: { projectId: project.id, referralCount: MoreThan(0), status: Not('unsubscribed') },
      order: { referralCount: 'DESC', position: 'ASC' },
      take: LEADERBOARD_SIZE,
    });
    return rows.map(toLeaderboardItemDto);
  }
}
