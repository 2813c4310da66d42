import { Injectable } from '@nestjs/common';
import { MoreThan, Not } from 'typeorm';
import { Database } from '../infra/database/database.service';
import type { ProjectRef } from '../projects/project-ref';
import { LeaderboardItemDto, toLeaderboardItemDto } from './dto/leaderboard-item.dto';
import { WaitlistStatsDto, toWaitlistStatsDto } from './dto/waitlist-stats.dto';
import { WaitlistSignupEntity } from './entities/waitlist-signup.entity';
import { waitlistTotals } from './waitlist.queries';

const LEADERBOARD_SIZE = 50;
const TOP_REFERRERS_SIZE = 10;

/**
 * The owner's figures of the waitlist. Stats count every signup whatever its status; the
 * leaderboard leaves out people with no referrals and people who unsubscribed (it is meant to be
 * shown publicly, so emails are masked).
 */
@Injectable()
export class StatsService {
  constructor(private readonly db: Database) {}

  async getStats(project: ProjectRef): Promise<WaitlistStatsDto> {
    return toWaitlistStatsDto(await waitlistTotals(this.db.reads, project.id, TOP_REFERRERS_SIZE));
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
