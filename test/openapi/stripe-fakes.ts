import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAKE_STRIPE_SECRETS, FakeStripe } from '../support/fake-stripe';
import { FakeStripeReads } from '../support/fake-stripe-reads';

/**
 * Both payment-processor fakes behind the one STRIPE_API_URL a server has: calls made with the
 * operator's billing key reach the billing fake (checkout, portal), calls with a project's own
 * restricted key reach the read fake (revenue connections).
 */
export class StripeFakes {
  private constructor(
    readonly billing: FakeStripe,
    readonly reads: FakeStripeReads,
    private readonly server: Server,
  ) {}

  static async start(): Promise<StripeFakes> {
    const billing = await FakeStripe.start();
    const reads = await FakeStripeReads.start();
    const server = createServer((req, res) => {
      const target = new URL(
        req.url ?? '/',
        req.headers.authorization === `Bearer ${FAKE_STRIPE_SECRETS.STRIPE_SECRET_KEY}` ? billing.url : reads.url,
      );
      const forwarded = request(target, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forwarded.on('error', () => res.destroy());
      req.pipe(forwarded);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new StripeFakes(billing, reads, server);
  }

  env(): Record<string, string> {
    return this.billing.env({ STRIPE_API_URL: `http://127.0.0.1:${(this.server.address() as AddressInfo).port}` });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
    await this.billing.close();
    await this.reads.close();
  }
}
