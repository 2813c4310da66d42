import { randomInt } from 'node:crypto';
import { PLAN_NAMES, PURCHASABLE_PLANS, type PlanName } from '../projects/plans';

/** Spec: a referral code is exactly 8 letters or digits. */
const REFERRAL_CODE_LENGTH = 8;
export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9]{8}$/;

// Crockford base32 (no I, L, O, U): easy to read aloud and to type from a printed link.
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A fresh random referral code; uniqueness is decided by the database (unique index, retry). */
export function generateReferralCode(random: (max: number) => number = randomInt): string {
  let code = '';
  for (let index = 0; index < REFERRAL_CODE_LENGTH; index += 1) code += CODE_ALPHABET[random(CODE_ALPHABET.length)];
  return code;
}

/** Codes are issued upper-case; a code typed in lower case still matches. */
export function normalizeReferralCode(code: string): string {
  return code.toUpperCase();
}

/** `{base_url}/w/{project_slug}?ref={code}`: the link a person shares to bring others. */
export function referralLink(baseUrl: string, projectSlug: string, code: string): string {
  return `${baseUrl}/w/${encodeURIComponent(projectSlug)}?ref=${encodeURIComponent(code)}`;
}

// The signup result's `project_plan` enum (spec) stops at the top purchasable plan; higher plans report as it.
const TOP_RESULT_PLAN = PURCHASABLE_PLANS[PURCHASABLE_PLANS.length - 1];
export const SIGNUP_RESULT_PLANS: readonly PlanName[] = PLAN_NAMES.slice(0, PLAN_NAMES.indexOf(TOP_RESULT_PLAN) + 1);

export function signupResultPlan(plan: PlanName): PlanName {
  return SIGNUP_RESULT_PLANS.includes(plan) ? plan : TOP_RESULT_PLAN;
}

function maskPart(part: string): string {
  return part.length === 0 ? '***' : `${Array.from(part)[0]}***`;
}

/**
 * `ada@example.com` → `a***@e***.com`: first character of the local part and of the domain, the
 * top-level domain kept. Anything without an `@` is masked entirely.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return '***';
  const local = email.slice(0, at);
  const labels = email.slice(at + 1).split('.');
  const domain =
    labels.length > 1 && labels[labels.length - 1] ? `${maskPart(labels[0])}.${labels[labels.length - 1]}` : maskPart(labels[0]);
  return `${maskPart(local)}@${domain}`;
}

/** `via_referral_count / total_signups`, 4 decimals; 0 on an empty list. */
export function referralConversionRate(viaReferral: number, total: number): number {
  return total === 0 ? 0 : Math.round((viaReferral / total) * 10_000) / 10_000;
}
