/** At most one confirmation email per 5 minutes per signup (spec: Limits → Waitlist), its first one included. */
export const RESEND_INTERVAL_MS = 5 * 60_000;

/** Milliseconds until the next confirmation email may go out; 0 when it may go now. */
export function resendWaitMs(lastSentAt: Date | null, now: Date): number {
  if (lastSentAt === null) return 0;
  return Math.max(0, lastSentAt.getTime() + RESEND_INTERVAL_MS - now.getTime());
}
