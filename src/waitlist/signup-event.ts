import type { WaitlistSignupEntity } from './entities/waitlist-signup.entity';

/** The data of `waitlist.signup.created` (spec: Events): `source` is how the person joined. */
export function signupCreatedData(signup: WaitlistSignupEntity): Record<string, unknown> {
  return {
    signup_id: signup.id,
    email: signup.email,
    position: signup.position,
    referral_code: signup.referralCode,
    referred: signup.referredBySignupId !== null,
    source: signup.channel,
    utm_source: signup.source.utm_source ?? null,
    utm_medium: signup.source.utm_medium ?? null,
    utm_campaign: signup.source.utm_campaign ?? null,
    referrer: signup.source.referrer ?? null,
    landing_path: signup.source.landing_path ?? null,
    metadata: signup.metadata,
    created_at: signup.createdAt.toISOString(),
  };
}
