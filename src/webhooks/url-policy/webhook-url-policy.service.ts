import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { WebhookFormat } from '../entities/webhook-endpoint.entity';
import { WebhookHostResolver } from './host-resolver.service';
import { isPublicUnicast } from './public-address';
import { bareHostname, checkWebhookUrl, UrlRuleViolation } from './url-rules';

/**
 * Every URL rule of an endpoint (spec: URL rules) at create and update time: the rules on the URL
 * itself (url-rules.ts), then DNS: the hostname must resolve, and only to public unicast
 * addresses. The same address check runs again inside every delivery's connection
 * (connect-lookup.ts), since DNS answers change. WEBHOOK_ALLOW_INSECURE_URLS skips the DNS check.
 */
@Injectable()
export class WebhookUrlPolicy {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly resolver: WebhookHostResolver,
  ) {}

  /** The parsed URL, or 422 INVALID_WEBHOOK_URL (param `url`) whose message names the broken rule. */
  async check(raw: string, format: WebhookFormat): Promise<URL> {
    const allowInsecureUrls = this.config.webhooks.allowInsecureUrls;
    let url: URL;
    try {
      url = checkWebhookUrl(raw, format, { allowInsecureUrls });
    } catch (error) {
      if (error instanceof UrlRuleViolation) throw invalidUrl(error.message);
      throw error;
    }
    if (allowInsecureUrls) return url;
    const host = bareHostname(url);
    const addresses = await this.resolver.resolve(host);
    if (addresses.length === 0) throw invalidUrl(`The hostname ${host} must resolve to a public address; it does not resolve.`);
    const refused = addresses.find((address) => !isPublicUnicast(address));
    if (refused) throw invalidUrl(`The hostname ${host} must resolve only to public addresses; it resolves to ${refused}.`);
    return url;
  }
}

function invalidUrl(message: string): ApiError {
  return new ApiError('INVALID_WEBHOOK_URL', message, { param: 'url' });
}
