import { type PlanName, planAllows } from '../../projects/plans';
import type { ChangelogEntryEntity } from '../entities/changelog-entry.entity';

type MailableEntry = Pick<ChangelogEntryEntity, 'status' | 'audience' | 'notifySubscribers' | 'expiresAt'>;

/**
 * Why an entry's mailing sends nothing (spec: Events → Delivery 5 and 6), or null when it may go
 * out. Checked on every batch against the rows as they are now, so an entry archived, expired or
 * turned private while its emails are being written stops the rest.
 */
export function mailingSkipReason(entry: MailableEntry | null, plan: PlanName | null, now: Date): string | null {
  if (!entry || plan === null) return 'the entry no longer exists';
  if (entry.status !== 'published') return `the entry is ${entry.status}, not published`;
  // Signed-in and segment entries are never emailed.
  if (entry.audience !== 'public') return `the entry's audience is ${entry.audience}; only public entries are emailed`;
  if (!entry.notifySubscribers) return 'notify_subscribers is off';
  if (entry.expiresAt && entry.expiresAt.getTime() <= now.getTime()) return 'the entry has expired';
  // plans.ts (ours): subscriber emails come with Indie and up; subscribing works on every plan.
  if (!planAllows(plan, 'email_notifications')) return `the ${plan} plan does not include subscriber emails`;
  return null;
}
