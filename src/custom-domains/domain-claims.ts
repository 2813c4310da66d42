/**
 * How long a pending claim on a hostname lives. Pending claims block no one (several projects may
 * claim one name; the first to verify holds it), so the limit only bounds how long a forgotten
 * claim lingers in lists and plan counts, and how long a token stays good.
 */
export const CLAIM_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** When a pending claim made at `createdAt` lapses. */
export function claimExpiresAt(createdAt: Date): Date {
  return new Date(createdAt.getTime() + CLAIM_TTL_MS);
}

/** Claims made at or before this moment have lapsed unless verified. */
export function lapsedBefore(now: Date): Date {
  return new Date(now.getTime() - CLAIM_TTL_MS);
}

export function hasLapsed(claim: { verifiedAt: Date | null; createdAt: Date }, now: Date): boolean {
  return claim.verifiedAt === null && claimExpiresAt(claim.createdAt).getTime() <= now.getTime();
}
