import { PLATFORM_LIMITS } from '../plans';
import type { SlugHold } from './slug-history.queries';

const DAY_MS = 86_400_000;

/** Whether a released slug is still kept from `projectId` (null: a new project): held by another project for 30 days. */
export function isHeldFrom(hold: SlugHold | null, projectId: string | null, now: Date): boolean {
  if (!hold) return false;
  if (projectId !== null && hold.projectId === projectId) return false;
  return now.getTime() - hold.releasedAt.getTime() < PLATFORM_LIMITS.slugHoldDays * DAY_MS;
}

/** The start of the window whose counted changes limit the next one. */
export function slugChangeWindowStart(now: Date): Date {
  return new Date(now.getTime() - PLATFORM_LIMITS.slugChangeWindowDays * DAY_MS);
}

/**
 * When the slug may change again, given the counted changes inside the window (oldest first):
 * null when it may change now; otherwise when the oldest change that fills the limit leaves it.
 */
export function nextSlugChangeAt(countedInWindow: readonly Date[]): Date | null {
  const limit = PLATFORM_LIMITS.slugChangesPerWindow;
  if (countedInWindow.length < limit) return null;
  const blocking = countedInWindow[countedInWindow.length - limit];
  return new Date(blocking.getTime() + PLATFORM_LIMITS.slugChangeWindowDays * DAY_MS);
}
