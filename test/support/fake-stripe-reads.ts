import { createServer, Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type ReadResource = 'customers' | 'subscriptions' | 'invoices' | 'prices' | 'events';

export interface RecordedRead {
  method: string;
  path: string;
  query: Record<string, string>;
  key: string | undefined;
}

type StripeObject = { id: string; created?: number } & Record<string, unknown>;

/**
 * A local stand-in for the payment processor's read API, for project revenue connections: the
 * lists (`limit`, `starting_after`, `created[gte]` on events), retrieves, restricted keys with
 * per-list permissions, 429 with Retry-After and a failure after a given page. Separate from
 * fake-stripe.ts (billing's checkout and portal). Any request that is not a GET is a write the
 * service must never send: it is recorded in `writes`, which every suite checks stays empty.
 */
export class FakeStripeReads {
  readonly requests: RecordedRead[] = [];
  readonly writes: RecordedRead[] = [];
  /** Key → the lists it may read. A key absent here is unknown (401). */
  readonly keys = new Map<string, Set<ReadResource>>();
  readonly data: Record<Exclude<ReadResource, 'prices'>, StripeObject[]> = { customers: [], subscriptions: [], invoices: [], events: [] };
  /** The processor caps pages at 100; tests lower it to see paging. */
  maxPageSize = 100;
  private readonly rateLimits: Array<{ resource: ReadResource; retryAfter: string | null }> = [];
  private failure: { resource: ReadResource; afterPages: number; served: number } | null = null;
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(): Promise<FakeStripeReads> {
    let fake: FakeStripeReads | null = null;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => fake?.answer(req.method ?? 'GET', req.url ?? '/', req.headers.authorization, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake = new FakeStripeReads(server);
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A restricted key allowed every list the sync needs, or only `allowed`. */
  addKey(key: string, allowed: ReadResource[] = ['customers', 'subscriptions', 'invoices', 'prices', 'events']): string {
    this.keys.set(key, new Set(allowed));
    return key;
  }

  /** The next page request (not a key check) for `resource` answers 429 with this Retry-After (seconds; null: none). */
  rateLimitNext(resource: ReadResource, retryAfter: string | null): void {
    this.rateLimits.push({ resource, retryAfter });
  }

  /** After `pages` pages of `resource` (key checks aside) have been served, the next one answers 500 (once). */
  failAfterPages(resource: ReadResource, pages: number): void {
    this.failure = { resource, afterPages: pages, served: 0 };
  }

  reads(resource: ReadResource): RecordedRead[] {
    return this.requests.filter((request) => request.path === `/v1/${resource}`);
  }

  reset(): void {
    this.requests.length = 0;
    this.writes.length = 0;
    this.rateLimits.length = 0;
    this.failure = null;
    this.maxPageSize = 100;
    for (const list of Object.values(this.data)) list.length = 0;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private answer(method: string, url: string, authorization: string | undefined, res: ServerResponse): void {
    const parsed = new URL(url, 'http://fake');
    const record: RecordedRead = {
      method,
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      key: authorization?.replace(/^Bearer /, ''),
    };
    res.setHeader('content-type', 'application/json');
    if (method !== 'GET') {
      this.writes.push(record);
      return this.fail(res, 405, 'invalid_request_error', `The fake processor refuses writes (${method} ${record.path})`);
    }
    this.requests.push(record);
    const [, version, resource, id] = parsed.pathname.split('/') as [string, string, ReadResource, string | undefined];
    if (version !== 'v1' || !['customers', 'subscriptions', 'invoices', 'prices', 'events'].includes(resource)) {
      return this.fail(res, 404, 'invalid_request_error', `Unrecognized request URL (GET: ${parsed.pathname})`);
    }
    const allowed = record.key ? this.keys.get(record.key) : undefined;
    if (!allowed) return this.fail(res, 401, 'invalid_request_error', `Invalid API Key provided: ${record.key?.slice(0, 8)}***`);
    if (!allowed.has(resource)) {
      return this.fail(
        res,
        403,
        'invalid_request_error',
        `The provided key does not have the required permissions for this endpoint. Having the 'rak_${resource}_read' permission would allow this request to continue.`,
      );
    }
    if (id) return this.retrieve(resource, id, res);
    // The connect's key check reads one object of each list; the scripted 429s and failures are for the sync's pages.
    if (parsed.searchParams.get('limit') === '1') return this.list(resource, parsed.searchParams, res);
    const limited = this.rateLimits.findIndex((entry) => entry.resource === resource);
    if (limited >= 0) {
      const [entry] = this.rateLimits.splice(limited, 1);
      if (entry.retryAfter !== null) res.setHeader('retry-after', entry.retryAfter);
      return this.fail(res, 429, 'rate_limit_error', 'Too many requests hit the API too quickly.');
    }
    if (this.failure?.resource === resource) {
      if (this.failure.served >= this.failure.afterPages) {
        this.failure = null;
        res.setHeader('stripe-should-retry', 'false');
        return this.fail(res, 500, 'api_error', 'Something went wrong on our end.');
      }
      this.failure.served += 1;
    }
    this.list(resource, parsed.searchParams, res);
  }

  private list(resource: ReadResource, query: URLSearchParams, res: ServerResponse): void {
    let items = resource === 'prices' ? [] : this.data[resource];
    const since = query.get('created[gte]');
    if (since !== null) items = items.filter((item) => (item.created ?? 0) >= Number(since));
    const after = query.get('starting_after');
    const start = after ? items.findIndex((item) => item.id === after) + 1 : 0;
    const limit = Math.min(Number(query.get('limit') ?? 10), this.maxPageSize);
    const page = items.slice(start, start + limit);
    res.end(JSON.stringify({ object: 'list', url: `/v1/${resource}`, has_more: start + limit < items.length, data: page }));
  }

  private retrieve(resource: ReadResource, id: string, res: ServerResponse): void {
    const found = resource === 'prices' ? undefined : this.data[resource].find((item) => item.id === id);
    if (!found) return this.fail(res, 404, 'invalid_request_error', `No such ${resource.slice(0, -1)}: '${id}'`);
    res.end(JSON.stringify(found));
  }

  private fail(res: ServerResponse, status: number, type: string, message: string): void {
    res.statusCode = status;
    res.end(JSON.stringify({ error: { type, message } }));
  }
}
