import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

interface SiteverifyAnswer {
  success?: unknown;
  'error-codes'?: unknown;
}

/**
 * The bot check (spec: Authentication 6). With TURNSTILE_SECRET set, a token that the verifier
 * (Cloudflare siteverify or a compatible service at TURNSTILE_VERIFY_URL) accepts: a missing or
 * refused token is TURNSTILE_FAILED, a verifier that cannot answer is TURNSTILE_UNAVAILABLE.
 * Without the secret, tokens are not checked. Which signups must bring one is the caller's call
 * (SignupsService: browsers do, servers do not).
 */
@Injectable()
export class TurnstileVerifier {
  private readonly logger = new Logger(TurnstileVerifier.name);
  /** How long to wait for the verifier; public so a test can shorten it. */
  timeoutMs = 5_000;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get enabled(): boolean {
    return this.config.turnstile.secret !== null;
  }

  /** `remoteIp`: the visitor's address when the call comes from their browser, else null. */
  async verify(token: string | undefined, remoteIp: string | null): Promise<void> {
    const secret = this.config.turnstile.secret;
    if (secret === null) return;
    if (!token) throw this.failed('A bot-check token (turnstile_token) is required.');
    const form = new URLSearchParams({ secret, response: token });
    if (remoteIp) form.set('remoteip', remoteIp);
    const answer = await this.ask(form);
    if (answer.success !== true) throw this.failed('The bot-check token was not accepted.');
  }

  private async ask(form: URLSearchParams): Promise<SiteverifyAnswer> {
    let response: Response;
    try {
      response = await fetch(this.config.turnstile.verifyUrl, {
        method: 'POST',
        body: form,
        redirect: 'error',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw this.unavailable(`request failed: ${(error as Error).name}`);
    }
    if (!response.ok) throw this.unavailable(`answered ${response.status}`);
    try {
      return (await response.json()) as SiteverifyAnswer;
    } catch {
      throw this.unavailable('answered with a body that is not JSON');
    }
  }

  private failed(message: string): ApiError {
    return new ApiError('TURNSTILE_FAILED', message, { param: 'turnstile_token' });
  }

  private unavailable(reason: string): ApiError {
    this.logger.warn(`Bot-check verifier unavailable: ${reason}`);
    return new ApiError('TURNSTILE_UNAVAILABLE', 'The bot check could not be completed; nothing was saved. Retry in a few moments.');
  }
}
