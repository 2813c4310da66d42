import { createHmac } from 'node:crypto';

/** The header receivers verify (spec: Events → Signature). Stripe's verifiers read the same format. */
export const SIGNATURE_HEADER = 'Service-Signature';

/** The hex HMAC-SHA256 of `<t>.<raw body>` keyed with one endpoint secret. */
export function signaturePart(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
}

/**
 * The Service-Signature value: `t=<unix seconds>,v1=<hex>`, with one more `v1=` per extra secret
 * (after a rotation the previous secret also signs until it expires, so a receiver that has not
 * switched yet still verifies). Pure: the time is given, never read here.
 */
export function signatureHeader(secrets: readonly string[], timestamp: number, rawBody: string): string {
  if (secrets.length === 0) throw new Error('at least one signing secret is needed');
  const t = Math.floor(timestamp);
  return [`t=${t}`, ...secrets.map((secret) => `v1=${signaturePart(secret, t, rawBody)}`)].join(',');
}
