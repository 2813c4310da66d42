import type { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';
import type { RateLimitRule } from './rate-limiter.service';

type StorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** A lease never takes more than this share of what is left of a window's limit (1/16). */
const LEASE_SHARE_DIVISOR = 16;

/**
 * One fixed-window counter in Redis, in one script (sent once, then run by its SHA). The hits key
 * and the block key keep the names and meaning earlier releases used, so processes of two releases
 * count together during a rolling deploy: a call past the limit blocks the subject for
 * `blockMs` from that call, and a call during a block counts too (a client that keeps hammering
 * stays refused). A call within the limit takes a lease of `grant` hits at once (see
 * RedisWindowCounters); answers { hits after the call, ms left in the window, ms left in the
 * block (0 when none), grant }.
 */
const LEASE_SCRIPT = `
local windowMs = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local blockMs = tonumber(ARGV[3])
local leaseMax = tonumber(ARGV[4])
local function counted(by)
  local hits = redis.call('INCRBY', KEYS[1], by)
  local left = redis.call('PTTL', KEYS[1])
  if left < 0 then
    redis.call('PEXPIRE', KEYS[1], windowMs)
    left = windowMs
  end
  return hits, left
end
local blockLeft = redis.call('PTTL', KEYS[2])
if blockLeft > 0 then
  local hits, left = counted(1)
  return { hits, left, blockLeft, 0 }
end
local free = limit - tonumber(redis.call('GET', KEYS[1]) or '0')
if free <= 0 then
  local hits, left = counted(1)
  redis.call('SET', KEYS[2], 1, 'PX', blockMs)
  return { hits, left, blockMs, 0 }
end
local grant = math.min(free, math.max(1, math.min(leaseMax, math.floor(free / ${LEASE_SHARE_DIVISOR}))))
local hits, left = counted(grant)
return { hits, left, 0, grant }
`;

/**
 * Hands a process's unused tokens back to the window they were granted from: KEYS[1] the hits key,
 * ARGV the tokens, the ms the process expects the window to have left, and how far Redis may
 * differ from that. A window that ended and began again has at least a whole window more left than
 * expected, so tokens never reach a window that did not grant them. Answers how many went back.
 */
const GIVE_BACK_SCRIPT = `
local left = redis.call('PTTL', KEYS[1])
if left <= 0 or math.abs(left - tonumber(ARGV[2])) > tonumber(ARGV[3]) then return 0 end
local back = math.min(tonumber(ARGV[1]), tonumber(redis.call('GET', KEYS[1]) or '0'))
if back > 0 then redis.call('DECRBY', KEYS[1], back) end
return back
`;

/**
 * The lease of the limits every browser poll pays (the per-address browser limit, the bell's reads
 * per person): up to 8 hits of a subject per Redis round trip.
 */
export const POLL_COUNTER_LEASE = 8;

/** A lease may take up to this share of a window's whole limit when that is more than the rule's lease: 1/1024. */
const LEASE_LIMIT_DIVISOR = 1024;

/**
 * The most hits one grant may take for `rule`: the rule's lease, or 1/1024 of its limit when that is
 * more. Limits as the spec sets them (at most 8,192 a window) keep their lease of 8; a limit an
 * operator lifted far beyond (BROWSER_RATE_LIMIT for a deployment whose browsers reach it through
 * one address) takes proportionally more per round trip, so its subjects do not pay a Redis call
 * every 8 requests. What a peer may hold stays under 1/16 of what is left (LEASE_SCRIPT), and what a
 * process that dies without handing tokens back can strand stays under 1/1024 of the limit.
 */
export function leaseSizeOf(rule: RateLimitRule): number {
  const lease = rule.lease ?? 1;
  return lease <= 1 ? 1 : Math.max(lease, Math.floor(rule.limit / LEASE_LIMIT_DIVISOR));
}

/** Leases kept at most; past it, calls count one at a time until ended windows are swept. */
const MAX_LEASES = 100_000;

interface Lease {
  /** Hits this process may still allow without asking Redis. */
  tokens: number;
  /** The window's count in Redis right after this process's last grant. */
  counted: number;
  /** When the window ends (this process's clock). */
  endsAt: number;
  /** The grant being asked for: calls that find no token wait for it instead of asking too. */
  asking: Promise<void> | null;
  /** Until when Redis said the subject is blocked: calls meanwhile ask Redis each (it refuses and counts them) without queueing. */
  blockedUntil: number;
  /** The Redis key the tokens were granted from, and its window's length: where `close` returns them. */
  hitsKey: string;
  windowMs: number;
}

type LeaseCall = (
  hitsKey: string,
  blockKey: string,
  windowMs: number,
  limit: number,
  blockMs: number,
  leaseMax: number,
) => Promise<number[]>;

type GiveBackCall = (hitsKey: string, tokens: number, expectedLeftMs: number, leewayMs: number) => Promise<number>;

/** The window's count of a subject and its block: the keys' hash tag keeps both on one cluster slot. */
const hitsKeyOf = (key: string, rule: RateLimitRule): string => `{${key}:${rule.bucket}}:hits`;
const blockedKeyOf = (key: string, rule: RateLimitRule): string => `{${key}:${rule.bucket}}:blocked`;

/**
 * Counters of a rate limit in Redis, shared by every API process. A rule with `lease` above 1 lets
 * a process take up to that many hits of a subject's window in one round trip and allow them from
 * memory: the browser limit and the bell's hourly reads, which every poll of every browser counts,
 * so most polls cost no Redis call. What a lease changes, and what it does not:
 *
 * - The limit is never exceeded: a hit is allowed only against a token Redis granted.
 * - One process is exact: the same calls are allowed and refused, and `totalHits` (hence
 *   X-RateLimit-Remaining) is the same, as counting each hit in Redis.
 * - With several processes, tokens one process holds are counted in Redis before they are used:
 *   another process may refuse a subject up to the unused tokens of its peers early. A lease takes
 *   at most 1/16 of what is left (one hit at a time in the last 32 of a window), so a peer holds
 *   at most one lease's worth (7 of 8) when the limit is reached. Those hits are not lost: that
 *   process allows them to its next calls of the subject, so over every process the window's limit
 *   is allowed exactly once as long as calls keep coming to each (test/cluster/limits).
 * - Concurrent calls of one subject in one process wait for a single grant instead of each asking.
 * - A process that stops (a rolling deploy) hands its unused tokens back (`close`), so its peers
 *   may allow them at once instead of after the window. Tokens are not handed back while the
 *   process runs: a browser polls every 15-60 s, and a lease returned between its polls would
 *   cost a Redis call each.
 */
export class RedisWindowCounters {
  private readonly leases = new Map<string, Lease>();
  private readonly call: LeaseCall;
  private readonly giveBack: GiveBackCall;
  private readonly sweeper: NodeJS.Timeout;

  constructor(redis: Redis) {
    redis.defineCommand('leaseWindowHits', { numberOfKeys: 2, lua: LEASE_SCRIPT });
    redis.defineCommand('giveBackWindowHits', { numberOfKeys: 1, lua: GIVE_BACK_SCRIPT });
    const commands = redis as unknown as { leaseWindowHits: LeaseCall; giveBackWindowHits: GiveBackCall };
    this.call = commands.leaseWindowHits.bind(redis);
    this.giveBack = commands.giveBackWindowHits.bind(redis);
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async increment(key: string, rule: RateLimitRule): Promise<StorageRecord> {
    const leaseMax = leaseSizeOf(rule);
    if (leaseMax <= 1 || (this.leases.size >= MAX_LEASES && !this.leases.has(key))) {
      return this.counted(await this.ask(key, rule, 1));
    }
    for (;;) {
      const now = Date.now();
      let lease = this.leases.get(key);
      if (lease && lease.endsAt <= now && lease.asking === null) {
        this.leases.delete(key);
        lease = undefined;
      }
      if (lease && lease.tokens > 0 && lease.endsAt > now) {
        lease.tokens -= 1;
        return {
          totalHits: lease.counted - lease.tokens,
          timeToExpire: (lease.endsAt - now) / 1000,
          isBlocked: false,
          timeToBlockExpire: 0,
        };
      }
      if (lease && lease.blockedUntil > now) return this.counted(await this.ask(key, rule, 1));
      if (lease?.asking) {
        await lease.asking;
        continue;
      }
      return this.grant(key, rule, leaseMax, lease ?? this.newLease(key));
    }
  }

  /**
   * Stops the sweep and forgets every lease; with `giveBack` (Redis answers), first hands the unused
   * tokens of windows still running back to Redis. Answers how many tokens went back.
   */
  async close(giveBack = true): Promise<number> {
    clearInterval(this.sweeper);
    const now = Date.now();
    const returns: Promise<number>[] = [];
    for (const lease of this.leases.values()) {
      if (giveBack && lease.tokens > 0 && lease.endsAt > now && lease.hitsKey) {
        // Half a window of leeway: what the process expects is left (Redis's own answer at the grant,
        // less the time since) is off by round trips only; a window that began again is a whole window away.
        returns.push(this.giveBack(lease.hitsKey, lease.tokens, lease.endsAt - now, lease.windowMs / 2).catch(() => 0));
      }
      lease.tokens = 0;
    }
    this.leases.clear();
    return (await Promise.all(returns)).reduce((sum, back) => sum + back, 0);
  }

  private newLease(key: string): Lease {
    const lease: Lease = { tokens: 0, counted: 0, endsAt: 0, asking: null, blockedUntil: 0, hitsKey: '', windowMs: 0 };
    this.leases.set(key, lease);
    return lease;
  }

  /** Asks Redis for a grant; the caller takes the first token of it. */
  private async grant(key: string, rule: RateLimitRule, leaseMax: number, lease: Lease): Promise<StorageRecord> {
    let reply!: number[];
    const asking = this.ask(key, rule, leaseMax).then((answer) => {
      reply = answer;
    });
    lease.asking = asking;
    try {
      await asking;
    } finally {
      lease.asking = null;
    }
    const now = Date.now();
    const [hits, windowLeftMs, blockLeftMs, granted] = reply;
    if (granted > 0) {
      lease.tokens = granted - 1;
      lease.counted = hits;
      lease.endsAt = now + windowLeftMs;
      lease.hitsKey = hitsKeyOf(key, rule);
      lease.windowMs = rule.windowMs;
    } else {
      lease.blockedUntil = now + blockLeftMs;
      lease.endsAt = Math.max(lease.endsAt, lease.blockedUntil);
    }
    return this.counted(reply, lease.tokens);
  }

  private ask(key: string, rule: RateLimitRule, leaseMax: number): Promise<number[]> {
    return this.call(hitsKeyOf(key, rule), blockedKeyOf(key, rule), rule.windowMs, rule.limit, rule.windowMs, leaseMax);
  }

  /** Redis's answer as the throttler storage's record; `unused` tokens of the grant are not yet hits. */
  private counted([hits, windowLeftMs, blockLeftMs]: number[], unused = 0): StorageRecord {
    return {
      totalHits: hits - unused,
      timeToExpire: windowLeftMs / 1000,
      isBlocked: blockLeftMs > 0,
      timeToBlockExpire: blockLeftMs / 1000,
    };
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, lease] of this.leases) if (lease.endsAt <= now && lease.asking === null) this.leases.delete(key);
  }
}
