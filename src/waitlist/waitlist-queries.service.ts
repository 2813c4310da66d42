import { Injectable } from '@nestjs/common';
import { MoreThan, Not } from 'typeorm';
import { LINE_ORDER, listPage } from '../common/http/list-page';
import { Paged } from '../common/http/reply';
import { normalizeEmail } from '../common/validation/email-field';
import { Database } from '../infra/database/database';
import type { ProjectRef } from '../projects/project-ref';
import { LeaderboardItemDto } from './dto/leaderboard-item.dto';
import { ListSignupsQueryDto } from './dto/list-signups-query.dto';
import { SignupDto } from './dto/signup.dto';
import { WaitlistStatsDto } from './dto/waitlist-stats.dto';
import { WaitlistSignupEntity } from './entities/waitlist-signup.entity';
import { maskEmail } from './referral';
import { toSignupDto } from './signup-store';

export const LEADERBOARD_SIZE = 50;
export const TOP_REFERRERS_SIZE = 10;

/** `via_referral_count / total_signups`, 4 decimals; 0 on an empty list. */
export function referralConversionRate(viaReferral: number, total: number): number {
  return total === 0 ? 0 : Math.round((viaReferral / total) * 10_000) / 10_000;
}

/**
 * Reads of the waitlist for its owner. The list runs in line order (position ascending), the
 * natural order of a queue; its cursor is the last position of the page. Stats count every signup
 * whatever its status; the leaderboard leaves out people with no referrals and people who
 * unsubscribed (it is meant to be shown publicly, so emails are masked).
 */
@Injectable()
export class WaitlistQueriesService {
  constructor(private readonly db: Database) {}

  async listSignups(project: ProjectRef, query: ListSignupsQueryDto): Promise<Paged<SignupDto>> {
    const qb = this.db.manager.createQueryBuilder(WaitlistSignupEntity, 's').where('s.project_id = :projectId', { projectId: project.id });
    // A filter, not an address to store: any text is accepted, and matches case-insensitively.
    if (query.email) qb.andWhere('s.email = :email', { email: normalizeEmail(query.email) });
    if (query.status) qb.andWhere('s.status = :status', { status: query.status });
    return listPage(qb, query, LINE_ORDER, toSignupDto);
  }

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
    const top = await this.db.manager.find(WaitlistSignupEntity, {
      where: { projectId: project.id, referralCount: MoreThan(0) },
      order: { referralCount: 'DESC', position: 'ASC' },
      take: TOP_REFERRERS_SIZE,
    });
    const total = Number(totals.total);
    const viaReferral = Number(totals.referred);
    return {
      total_signups: total,
      confirmed_count: Number(totals.confirmed),
      invited_count: Number(totals.invited),
      via_referral_count: viaReferral,
      referral_conversion_rate: referralConversionRate(viaReferral, total),
      top_referrers: top.map((row) => ({ signup_id: row.id, email: row.email, referral_count: row.referralCount })),
    };
  }

  async getLeaderboard(project: ProjectRef): Promise<LeaderboardItemDto[]> {
    const rows = await this.db.manager.find(WaitlistSignupEntity, {
      select: { id: true, email: true, referralCount: true, position: true },
      where: { projectId: project.id, referralCount: MoreThan(0), status: Not('unsubscribed') },
      order: { referralCount: 'DESC', position: 'ASC' },
      take: LEADERBOARD_SIZE,
    });
    return rows.map((row, index) => ({ rank: index + 1, masked_email: maskEmail(row.email), referral_count: row.referralCount }));
  }
}
