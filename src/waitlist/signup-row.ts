import { newId } from '../common/ids/ids';
import type { SignupSourceDto } from './dto/create-signup.dto';
import { type SignupChannel, type SignupSource, type SignupStatus, WaitlistSignupEntity } from './entities/waitlist-signup.entity';
import { generateReferralCode } from './referral';

/** A signup before the counter gives it a position. */
export type SignupDraft = Omit<WaitlistSignupEntity, 'position' | 'project' | 'referredBy'>;

/** Who joined and how. Imported signups bring their own state; the others start waiting and unconfirmed. */
interface SignupInput {
  email: string;
  channel: SignupChannel;
  metadata: Record<string, string | number | boolean>;
  source: SignupSource;
  referredBySignupId?: string | null;
  status?: SignupStatus;
  confirmedAt?: Date | null;
  invitedAt?: Date | null;
  unsubscribedAt?: Date | null;
  createdAt?: Date;
}

/**
 * The one place a signup row is built, for API signups and CSV imports alike. Every signup gets a
 * fresh referral code (the unique index decides, a collision retries). An API signup's confirmation
 * email is written in the same transaction, so it counts as sent now; an import sends none.
 */
export function signupDraft(projectId: string, input: SignupInput, now: Date): SignupDraft {
  return {
    id: newId('ws'),
    projectId,
    email: input.email,
    referralCode: generateReferralCode(),
    referredBySignupId: input.referredBySignupId ?? null,
    referralCount: 0,
    status: input.status ?? 'waiting',
    channel: input.channel,
    confirmedAt: input.confirmedAt ?? null,
    invitedAt: input.invitedAt ?? null,
    unsubscribedAt: input.unsubscribedAt ?? null,
    lastConfirmationSentAt: input.channel === 'import' ? null : now,
    metadata: input.metadata,
    source: input.source,
    createdAt: input.createdAt ?? now,
  };
}

/** The draft at its place in line. */
export function placeSignup(draft: SignupDraft, position: number): WaitlistSignupEntity {
  return Object.assign(new WaitlistSignupEntity(), draft, { position });
}

const SOURCE_KEYS = ['referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'landing_path'] as const;

/** The attribution fields that were sent, and nothing else (absent ones are not stored as null). */
export function compactSource(source: SignupSourceDto | undefined): SignupSource {
  const compact: SignupSource = {};
  for (const key of SOURCE_KEYS) if (typeof source?.[key] === 'string') compact[key] = source[key];
  return compact;
}
