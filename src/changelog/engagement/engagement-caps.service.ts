import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { RateLimiter, type RateLimitRule } from '../../infra/rate-limit/rate-limiter.service';
import { PLATFORM_LIMITS } from '../../projects/plans';

const CAPS = PLATFORM_LIMITS.engagementPerAddressPerEntryPerHour;
type CappedCount = keyof typeof CAPS;

const HOUR_MS = 3_600_000;

// The window outlives its hour a little, so a late hit never opens a fresh counter for that hour.
const RULES: Readonly<Record<CappedCount, RateLimitRule>> = {
  views: { bucket: 'engagement-views', limit: CAPS.views, windowMs: HOUR_MS + 60_000 },
  anonymousReaders: { bucket: 'engagement-readers', limit: CAPS.anonymousReaders, windowMs: HOUR_MS + 60_000 },
  ctaClicks: { bucket: 'engagement-clicks', limit: CAPS.ctaClicks, windowMs: HOUR_MS + 60_000 },
  anonymousReactions: { bucket: 'engagement-reactions', limit: CAPS.anonymousReactions, windowMs: HOUR_MS + 60_000 },
};

/**
 * How much one address (an IPv6 /64) may add to one entry's numbers in a UTC clock hour (the hour
 * from the injected clock, part of the counter's key). A browser names itself with a `client_id`
 * it makes up, so a script that sends a fresh one each time would otherwise be any number of
 * people; the address is the one thing it cannot choose freely.
 *
 * Counters are the shared rate-limit counters (infra/rate-limit: Redis when REDIS_URL is set, so
 * every process counts together; memory otherwise), one per address, entry and kind; the checks of
 * one request run side by side. Past a cap the caller answers exactly as before and only leaves the
 * number alone: the widget and the hosted page never see an error for counting, and a script gets
 * no signal to adapt to. Signed-in readers and their reactions are not capped here (callers skip
 * them): a verified user id takes the project's signing secret to make, and each counts once.
 */
@Injectable()
export class EngagementCaps {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
  ) {}

  /** The entries among `entryIds` that `addressKey` may still add a `count` to this hour; each asked counts. */
  async within(count: CappedCount, addressKey: string, entryIds: readonly string[]): Promise<string[]> {
    if (entryIds.length === 0) return [];
    const hour = Math.floor(this.clock.now().getTime() / HOUR_MS);
    const results = await Promise.all(entryIds.map((entryId) => this.limiter.hit(RULES[count], `${hour}|${addressKey}|${entryId}`)));
    return entryIds.filter((_, index) => results[index].allowed);
  }

  async allows(count: CappedCount, addressKey: string, entryId: string): Promise<boolean> {
    return (await this.within(count, addressKey, [entryId])).length > 0;
  }
}
