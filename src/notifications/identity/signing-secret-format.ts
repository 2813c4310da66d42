import { randomBase62 } from '../../common/ids/random-base62';

export const SIGNING_SECRET_PREFIX = 'svc_ntf_';
/** 40 base62 characters: about 238 bits from the CSPRNG, more than the 32 of an API key (it keys HMACs for years). */
const SIGNING_SECRET_BODY_LENGTH = 40;
/** How long the old secret keeps verifying after a rotation (spec: Notification signing secret). */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

/** A new signing secret: `svc_ntf_` and 40 base62 characters. */
export function generateSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomBase62(SIGNING_SECRET_BODY_LENGTH)}`;
}

/** Until when the secret a rotation at `rotatedAt` replaces still verifies. */
export function previousValidUntil(rotatedAt: Date): Date {
  return new Date(rotatedAt.getTime() + ROTATION_GRACE_MS);
}
