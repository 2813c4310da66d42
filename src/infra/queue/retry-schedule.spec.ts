import { CLOCK_SKEW_TOLERANCE_MS, afterFailedAttempt, leaseTimes, maxAttemptsOf } from './retry-schedule';

const NOW = new Date('2026-11-02T10:00:00.000Z');
const DELAYS = [60_000, 300_000, 1_800_000];

describe('afterFailedAttempt', () => {
  it('schedules attempt n + 1 after the n-th delay', () => {
    expect(afterFailedAttempt(1, DELAYS, NOW)).toEqual({ status: 'pending', nextAttemptAt: new Date('2026-11-02T10:01:00.000Z') });
    expect(afterFailedAttempt(2, DELAYS, NOW)).toEqual({ status: 'pending', nextAttemptAt: new Date('2026-11-02T10:05:00.000Z') });
    expect(afterFailedAttempt(3, DELAYS, NOW)).toEqual({ status: 'pending', nextAttemptAt: new Date('2026-11-02T10:30:00.000Z') });
  });

  it('gives up after the attempt that follows the last delay', () => {
    expect(afterFailedAttempt(4, DELAYS, NOW)).toEqual({ status: 'failed' });
    expect(afterFailedAttempt(9, DELAYS, NOW)).toEqual({ status: 'failed' });
    expect(maxAttemptsOf(DELAYS)).toBe(4);
  });

  it('gives a row without retries one attempt', () => {
    expect(afterFailedAttempt(1, [], NOW)).toEqual({ status: 'failed' });
    expect(maxAttemptsOf([])).toBe(1);
  });
});

describe('leaseTimes', () => {
  it('ends the lease one lease length from now and tolerates a little clock skew beyond it', () => {
    expect(leaseTimes(NOW, 60_000)).toEqual({
      leaseEnd: new Date('2026-11-02T10:01:00.000Z'),
      latestPlausibleLeaseEnd: new Date(NOW.getTime() + 60_000 + CLOCK_SKEW_TOLERANCE_MS),
    });
  });
});
