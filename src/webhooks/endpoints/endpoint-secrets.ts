import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../common/crypto/secret-box';
import type { WebhookEndpointEntity } from '../entities/webhook-endpoint.entity';

/** Prefix of a webhook signing secret, as Stripe's: recognisable in logs and secret scanners. */
const SIGNING_SECRET_PREFIX = 'whsec_';

/** How long a rotated-out secret keeps signing next to the new one (Stripe's default window). */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/** What opening an endpoint needs: a SecretBox, or the injectable WebhookSecretBox. */
interface Opener {
  open(sealed: string): string;
}

/**
 * The SecretBox keyed with ENCRYPTION_KEY that seals endpoint URLs and secrets, injectable (the
 * delivery side opens what the endpoint side sealed). bootstrap.ts always provides a key (generated
 * into DATA_DIR when unset); an app built without one still starts, and fails only on use.
 */
export class WebhookSecretBox implements Opener {
  private readonly box: SecretBox | null;

  constructor(key: Buffer | null) {
    this.box = key ? new SecretBox(key) : null;
  }

  seal(plaintext: string): string {
    return this.required().seal(plaintext);
  }

  open(sealed: string): string {
    return this.required().open(sealed);
  }

  private required(): SecretBox {
    if (!this.box) throw new Error('ENCRYPTION_KEY is not configured');
    return this.box;
  }
}

/**
 * A fresh signing secret: `whsec_` and 32 base64url characters (24 random bytes, 192 bits). The
 * whole string, prefix included, is the HMAC key, as Stripe's `constructEvent` uses it.
 */
export function generateWebhookSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;
}

interface OpenedEndpoint {
  /** The URL in full, for the request only; never log it (chat URLs carry their token). */
  readonly url: string;
  /** The secrets to sign with: the current one first, then the previous one while its 24 h last. */
  readonly secrets: string[];
}

/** The delivery side's read of an endpoint row: its URL and signing secrets, unsealed. */
export function openEndpoint(
  box: Opener,
  row: Pick<WebhookEndpointEntity, 'urlCiphertext' | 'secretCiphertext' | 'previousSecretCiphertext' | 'previousSecretValidUntil'>,
  now: Date,
): OpenedEndpoint {
  const secrets = [box.open(row.secretCiphertext)];
  if (row.previousSecretCiphertext && row.previousSecretValidUntil && row.previousSecretValidUntil > now) {
    secrets.push(box.open(row.previousSecretCiphertext));
  }
  return { url: box.open(row.urlCiphertext), secrets };
}
