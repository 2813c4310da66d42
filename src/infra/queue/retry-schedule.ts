/** What a failed attempt leads to: another attempt at a later time, or the end. */
export type AfterFailure = { status: 'pending'; nextAttemptAt: Date } | { status: 'failed' };

/**
 * `attempts` counts the attempt that just failed; `retryDelaysMs[n - 1]` is the wait after attempt
 * n, so a row gets one attempt more than there are delays.
 */
export function afterFailedAttempt(attempts: number, retryDelaysMs: readonly number[], now: Date): AfterFailure {
  const delay = retryDelaysMs[attempts - 1];
  if (delay === undefined) return { status: 'failed' };
  return { status: 'pending', nextAttemptAt: new Date(now.getTime() + delay) };
}

export function maxAttemptsOf(retryDelaysMs: readonly number[]): number {
  return retryDelaysMs.length + 1;
}

/**
 * Workers' clocks differ a little, and a losing claim may have read its "now" a moment before the
 * winner did; only a lease further out than one lease length plus this tolerance is taken for a
 * clock that went backwards.
 */
export const CLOCK_SKEW_TOLERANCE_MS = 5_000;

/**
 * The lease a claim at `now` takes, and the latest lease end that can be real: a lease ending
 * later was taken on a clock that has since gone backwards, so it counts as expired (else the row
 * would stay locked for as long as the clock jumped).
 */
export function leaseTimes(now: Date, leaseMs: number): { leaseEnd: Date; latestPlausibleLeaseEnd: Date } {
  return {
    leaseEnd: new Date(now.getTime() + leaseMs),
    latestPlausibleLeaseEnd: new Date(now.getTime() + leaseMs + CLOCK_SKEW_TOLERANCE_MS),
  };
}
