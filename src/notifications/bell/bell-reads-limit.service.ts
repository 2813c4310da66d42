import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { Database } from '../../infra/database/database.service';
import { RateLimiter } from '../../infra/rate-limit/rate-limiter.service';
import { POLL_COUNTER_LEASE } from '../../infra/rate-limit/redis-window-counters';
import { planLimit } from '../../projects/plans';
import type { ProjectRef } from '../../projects/project-ref';
import { recordBellUser } from './bell.queries';

const HOUR_MS = 3_600_000;

/** The clock hour `now` is in (its index since the epoch) and the seconds left in it. */
export function hourWindow(now: Date): { hour: number; secondsLeft: number } {
  const ms = now.getTime();
  const hour = Math.floor(ms / HOUR_MS);
  return { hour, secondsLeft: Math.max(1, Math.ceil(((hour + 1) * HOUR_MS - ms) / 1000)) };
}

/**
 * Bell reads per person per hour (spec: Limits, shared by inbox, unread and unread/count): a fixed
 * window per UTC clock hour, counted in Redis when REDIS_URL is set (every API process counts
 * together), in memory otherwise (infra/rate-limit). The hour is part of the counter's key and
 * comes from the injected clock, so `Retry-After` is the time to the end of the hour.
 *
 * The first counted read of the hour also records the person in bell_users (first and last seen),
 * which broadcast `reached` and `active_7d` are computed from: the poll path's only write, at most
 * once an hour per person (again after a Redis flush or a restart without Redis: an idempotent upsert).
 */
@Injectable()
export class BellReadsLimit {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async count(project: ProjectRef, userId: string): Promise<void> {
    const now = this.clock.now();
    const { hour, secondsLeft } = hourWindow(now);
    const limit = planLimit(project.plan, 'bellReadsPerUserPerHour');
    // The window is kept a little past its hour so a late hit never starts a fresh counter.
    const result = await this.limiter.hit(
      { bucket: 'bell-reads', limit, windowMs: HOUR_MS + 60_000, lease: POLL_COUNTER_LEASE },
      `${project.id}:${hour}:${userId}`,
    );
    if (!result.allowed) {
      throw new ApiError('RATE_LIMITED', `This person's bell asked more than ${limit} times this hour.`, {
        remediation: `Poll no more often than meta.poll_interval_seconds; the count starts again in ${secondsLeft} seconds (Retry-After).`,
        headers: { 'Retry-After': String(secondsLeft), 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': '0' },
      });
    }
    if (result.remaining === limit - 1) await recordBellUser(this.db.reads, project.id, userId, now);
  }
}
