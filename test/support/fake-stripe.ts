import { createServer, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Stripe from 'stripe';

export interface RecordedStripeRequest {
  method: string;
  path: string;
  /** The form-encoded body as flat `key[sub]` → value pairs. */
  params: Record<string, string>;
  authorization: string | undefined;
}

/** How the fake answers the next calls: normally, with a 500, or by dropping the connection. */
export type FakeStripeMode = 'ok' | 'server_error' | 'drop';

export const FAKE_STRIPE_SECRETS = {
  STRIPE_SECRET_KEY: 'sk_test_fake_launch',
  STRIPE_WEBHOOK_SECRET: 'whsec_fake_launch_secret',
  STRIPE_PRICE_INDIE: 'price_indie_monthly',
  STRIPE_PRICE_BUILDER: 'price_builder_monthly',
};

/** A local stand-in for the payment provider's API (Checkout and portal sessions), recording every request. */
export class FakeStripe {
  readonly requests: RecordedStripeRequest[] = [];
  mode: FakeStripeMode = 'ok';
  private counter = 0;
  private readonly sockets = new Set<Socket>();
  private readonly signer = new Stripe(FAKE_STRIPE_SECRETS.STRIPE_SECRET_KEY);

  private constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(): Promise<FakeStripe> {
    let fake: FakeStripe | null = null;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => fake?.answer(req.method ?? 'GET', req.url ?? '/', body, req.headers.authorization, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake = new FakeStripe(server);
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return { ...FAKE_STRIPE_SECRETS, STRIPE_API_URL: this.url, ...extra };
  }

  /**
   * A webhook delivery as the provider signs it: the exact body and its Stripe-Signature header,
   * signed now or at `signedAt` (Unix seconds).
   */
  signedEvent(event: object, secret = FAKE_STRIPE_SECRETS.STRIPE_WEBHOOK_SECRET, signedAt?: number): { body: string; signature: string } {
    const body = JSON.stringify(event);
    return { body, signature: this.signer.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: signedAt }) };
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private answer(
    method: string,
    url: string,
    body: string,
    authorization: string | undefined,
    res: import('node:http').ServerResponse,
  ): void {
    const path = url.split('?')[0];
    this.requests.push({ method, path, params: Object.fromEntries(new URLSearchParams(body)), authorization });
    if (this.mode === 'drop') {
      res.socket?.destroy();
      return;
    }
    res.setHeader('content-type', 'application/json');
    if (this.mode === 'server_error') {
      res.statusCode = 500;
      res.setHeader('stripe-should-retry', 'false');
      res.end(JSON.stringify({ error: { type: 'api_error', message: 'Something went wrong on our end.' } }));
      return;
    }
    // As the provider does, any other key is refused on every endpoint (a project's processor key
    // pointed at this fake by the shared STRIPE_API_URL gets PROCESSOR_KEY_INVALID).
    if (authorization !== `Bearer ${FAKE_STRIPE_SECRETS.STRIPE_SECRET_KEY}`) {
      res.statusCode = 401;
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } }));
      return;
    }
    this.counter += 1;
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = `cs_test_${this.counter}`;
      res.end(JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.stripe.test/c/pay/${id}` }));
    } else if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const id = `bps_${this.counter}`;
      res.end(JSON.stringify({ id, object: 'billing_portal.session', url: `https://billing.stripe.test/p/session/${id}` }));
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } }));
    }
  }
}
