import type { SecretBox } from '../../../common/crypto/secret-box';
import type { WebhookEndpointEntity } from '../../entities/webhook-endpoint.entity';

/*
 * INTERIM copy, owned by the endpoints helper at src/webhooks/endpoints/endpoint-secrets.ts: same
 * name and signature. The lead replaces imports of this file with that one at merge.
 */

/** The endpoint's URL and the secrets that sign now: the current one, then the previous one while valid. */
export function openEndpoint(
  box: SecretBox,
  row: Pick<WebhookEndpointEntity, 'urlCiphertext' | 'secretCiphertext' | 'previousSecretCiphertext' | 'previousSecretValidUntil'>,
  now: Date = new Date(),
): { url: string; secrets: string[] } {
  const secrets = [box.open(row.secretCiphertext)];
  if (row.previousSecretCiphertext && row.previousSecretValidUntil && row.previousSecretValidUntil.getTime() > now.getTime()) {
    secrets.push(box.open(row.previousSecretCiphertext));
  }
  return { url: box.open(row.urlCiphertext), secrets };
}
