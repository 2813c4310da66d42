import { Inject, Injectable, Logger } from '@nestjs/common';
import Stripe from 'stripe';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { APP_CONFIG, type AppConfig, type BillingConfig } from '../config/app-config';
import type { ProviderEvent, PurchasablePlan } from './billing-events';

interface CheckoutRequest {
  projectId: string;
  plan: PurchasablePlan;
  /** The project's customer when it has one; otherwise the provider creates one. */
  customerId: string | null;
  email: string | null;
  successUrl: string;
  cancelUrl: string;
}

// One retry (the package waits about half a second) rides out a blip without holding a dashboard
// click for long; the timeout bounds a hung provider.
const MAX_NETWORK_RETRIES = 1;
const TIMEOUT_MS = 10_000;
/** How far the signature's timestamp may be from our clock, either way (the package's default age). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

function clientOptions(config: BillingConfig): ConstructorParameters<typeof Stripe>[1] {
  if (!config.apiUrl) return { maxNetworkRetries: MAX_NETWORK_RETRIES, timeout: TIMEOUT_MS };
  const url = new URL(config.apiUrl);
  return {
    maxNetworkRetries: MAX_NETWORK_RETRIES,
    timeout: TIMEOUT_MS,
    host: url.hostname,
    port: url.port || (url.protocol === 'https:' ? '443' : '80'),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
  };
}

/**
 * The payment provider's API through its official package. Every failure of a call (network,
 * timeout, 5xx, or a 4xx that means our configuration is wrong) is BILLING_PORTAL_UNAVAILABLE
 * (502): the dashboard can only retry; 4xx are logged as errors for the operator.
 */
@Injectable()
export class BillingProvider {
  private readonly logger = new Logger(BillingProvider.name);
  private readonly stripe: Stripe | null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    const billing = config.billing;
    this.stripe = billing ? new Stripe(billing.secretKey, clientOptions(billing)) : null;
  }

  get configured(): boolean {
    return this.stripe !== null;
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<{ id: string; url: string }> {
    const { stripe, billing } = this.require();
    const metadata = { project_id: request.projectId, plan: request.plan };
    const session = await this.call('checkout', () =>
      stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: billing.prices[request.plan], quantity: 1 }],
        client_reference_id: request.projectId,
        metadata,
        subscription_data: { metadata },
        ...(request.customerId ? { customer: request.customerId } : request.email ? { customer_email: request.email } : {}),
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      }),
    );
    if (!session.url) throw this.unavailable('checkout', 'The payment provider answered without a checkout address.');
    return { id: session.id, url: session.url };
  }

  async createPortalSession(customerId: string, returnUrl: string): Promise<{ url: string }> {
    const { stripe } = this.require();
    const session = await this.call('portal', () => stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }));
    return { url: session.url };
  }

  /**
   * Verifies the signature over the exact bytes received, and that it was made within 5 minutes of
   * our clock either way; VALIDATION_ERROR otherwise. The package bounds only the age: a signature
   * dated ahead (captured from a provider with a wrong clock, or made for later) would otherwise
   * stay replayable until its date had passed plus the tolerance.
   */
  verifyEvent(rawBody: Buffer | undefined, signature: string | undefined): ProviderEvent {
    const webhookSecret = this.config.billing?.webhookSecret;
    if (!this.stripe || !webhookSecret) throw notConfigured();
    if (!signature) {
      throw new ApiError('VALIDATION_ERROR', 'The Stripe-Signature header is missing.', { param: 'Stripe-Signature' });
    }
    const nowMs = this.clock.now().getTime();
    let event: ProviderEvent;
    try {
      const body = rawBody ?? Buffer.alloc(0);
      event = this.stripe.webhooks.constructEvent(
        body,
        signature,
        webhookSecret,
        SIGNATURE_TOLERANCE_SECONDS,
        undefined,
        nowMs,
      ) as unknown as ProviderEvent;
    } catch {
      throw badSignature();
    }
    const signedAt = signatureTimestamp(signature);
    if (signedAt === null || signedAt > nowMs / 1000 + SIGNATURE_TOLERANCE_SECONDS) throw badSignature();
    return event;
  }

  private require(): { stripe: Stripe; billing: BillingConfig } {
    if (!this.stripe || !this.config.billing) throw notConfigured();
    return { stripe: this.stripe, billing: this.config.billing };
  }

  private async call<T>(what: 'checkout' | 'portal', request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      const detail = `${(error as Error).name}${status ? ` ${status}` : ''}`;
      if (status !== undefined && status < 500)
        this.logger.error(`billing ${what} refused by the provider (${detail}); check the Stripe settings`);
      else this.logger.warn(`billing ${what} failed (${detail})`);
      throw this.unavailable(what, `The payment provider did not answer the ${what} request.`);
    }
  }

  private unavailable(what: string, message: string): ApiError {
    return new ApiError('BILLING_PORTAL_UNAVAILABLE', message, {
      remediation: `Retry in a few moments; the ${what} was not opened.`,
    });
  }
}

/**
 * The signed time (`t=`) of a Stripe-Signature header, read as the package reads it (the last `t=`
 * wins, parsed as an integer), so the time we bound is the time that was signed.
 */
export function signatureTimestamp(header: string): number | null {
  let timestamp: number | null = null;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') timestamp = Number.parseInt(value, 10);
  }
  return timestamp === null || Number.isNaN(timestamp) ? null : timestamp;
}

function badSignature(): ApiError {
  return new ApiError(
    'VALIDATION_ERROR',
    'The Stripe-Signature header does not match the body, or its timestamp is not within 5 minutes of now.',
    {
      param: 'Stripe-Signature',
      remediation: 'Send the body exactly as signed, with a fresh signature made with the endpoint secret (STRIPE_WEBHOOK_SECRET).',
    },
  );
}

export function notConfigured(): ApiError {
  return new ApiError('BILLING_NOT_CONFIGURED', 'Billing is not configured on this server.', {
    remediation:
      'The operator must set STRIPE_SECRET_KEY, STRIPE_PRICE_INDIE and STRIPE_PRICE_BUILDER (and STRIPE_WEBHOOK_SECRET for the webhook).',
  });
}
