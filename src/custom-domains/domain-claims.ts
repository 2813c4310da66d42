/**
 * How long a pending claim on a hostname lives. Pending claims block no one (several projects may
 * claim one name; the first to verify holds it), so the limit only bounds how long a forgotten
 * claim lingers in lists and plan counts, and how long a token stays good.
 */
const CLAIM_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** When a pending claim that began at `pendingSince` lapses. */
export function claimExpiresAt(pendingSince: Date): Date {
  return new Date(pendingSince.getTime() + CLAIM_TTL_MS);
}

/** Claims that began at or before this moment have lapsed unless verified. */
export function lapsedBefore(now: Date): Date {
  return new Date(now.getTime() - CLAIM_TTL_MS);
}

export function hasLapsed(claim: { verifiedAt: Date | null; pendingSince: Date }, now: Date): boolean {
  return claim.verifiedAt === null && claimExpiresAt(claim.pendingSince).getTime() <= now.getTime();
}

/**
 * How long a verified hostname whose TXT record is gone keeps serving: the owner has this long to
 * put it back (a DNS provider move, a zone edit that dropped it) before the name is released.
 */
const FAILING_GRACE_MS = 7 * 24 * 60 * 60 * 1000;
/** A healthy verified hostname is looked at again this long after its last check. */
export const RECHECK_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** A failing one, or one whose lookup failed, sooner: a fix shows within the hour, the release is on time. */
export const RETRY_INTERVAL_MS = 60 * 60 * 1000;

/** When a hostname failing since `failingSince` stops serving unless a check passes first. */
export function servingEndsAt(failingSince: Date): Date {
  return new Date(failingSince.getTime() + FAILING_GRACE_MS);
}
