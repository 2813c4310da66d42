import { Inject, Injectable } from '@nestjs/common';
import Stripe from 'stripe';
import { ApiError } from '../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { ProcessorCustomer, ProcessorEvent, ProcessorInvoice, ProcessorSubscription } from './processor-objects';

/** The reads a sync needs, each one list at the processor; a key must be allowed all of them. */
export const REQUIRED_READS = ['customers', 'subscriptions', 'invoices', 'prices', 'events'] as const;
type RequiredRead = (typeof REQUIRED_READS)[number];

/** The processor's own names for the permissions, as its dashboard shows them when making a restricted key. */
const PERMISSION_LABELS: Record<RequiredRead, string> = {
  customers: 'Customers: Read',
  subscriptions: 'Billing → Subscriptions: Read',
  invoices: 'Billing → Invoices: Read',
  prices: 'Products and Prices: Read',
  events: 'Events: Read',
};

type ListedResource = 'customers' | 'subscriptions' | 'invoices' | 'events';
interface ListedObjects {
  customers: ProcessorCustomer;
  subscriptions: ProcessorSubscription;
  invoices: ProcessorInvoice;
  events: ProcessorEvent;
}

interface Page<T> {
  data: T[];
  hasMore: boolean;
}

/** The processor asked us to slow down: try again after `retryAfterMs`. */
export class ProcessorRateLimited extends Error {
  override readonly name = 'ProcessorRateLimited';
  constructor(readonly retryAfterMs: number) {
    super(`The payment processor rate-limited the sync; retrying after ${Math.round(retryAfterMs / 1000)} s`);
  }
}

const PAGE_SIZE = 100;
const TIMEOUT_MS = 20_000;
/** When a 429 carries no Retry-After (the processor's documented back-off starts around here). */
const DEFAULT_RETRY_AFTER_MS = 10_000;

interface ProcessorError {
  statusCode?: number;
  headers?: Record<string, string | string[] | undefined>;
  message?: string;
}

function retryAfterMs(error: ProcessorError): number {
  const header = error.headers?.['retry-after'];
  const seconds = Number(Array.isArray(header) ? header[0] : header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_RETRY_AFTER_MS;
}

/** Turns a 429 into ProcessorRateLimited; everything else is rethrown as is. */
async function readOrThrottle<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    const failure = error as ProcessorError;
    if (failure.statusCode === 429) throw new ProcessorRateLimited(retryAfterMs(failure));
    throw error;
  }
}

/**
 * One restricted key's reads at the processor, through its official package. Only list and
 * retrieve calls exist here: the service never writes to the processor. Retries are ours (a 429
 * reschedules the sync at Retry-After), so the package's own are off.
 */
export class ProcessorReader {
  constructor(private readonly stripe: Stripe) {}

  /**
   * Tries one page of every read the sync needs; answers the reads found. PROCESSOR_KEY_INVALID
   * when the processor does not know the key, PROCESSOR_KEY_MISSING_PERMISSION naming the first
   * read it refuses.
   */
  async checkPermissions(): Promise<RequiredRead[]> {
    for (const read of REQUIRED_READS) {
      try {
        await this.probe(read);
      } catch (error) {
        throw keyError(error as ProcessorError, read);
      }
    }
    return [...REQUIRED_READS];
  }

  list<R extends ListedResource>(resource: R, startingAfter: string | null, since?: number): Promise<Page<ListedObjects[R]>> {
    const paging = { limit: PAGE_SIZE, ...(startingAfter ? { starting_after: startingAfter } : {}) };
    return readOrThrottle(async () => {
      const page = await this.request(resource, paging, since);
      return { data: page.data as unknown as ListedObjects[R][], hasMore: page.has_more };
    });
  }

  retrieveSubscription(id: string): Promise<ProcessorSubscription> {
    return readOrThrottle(
      async () => (await this.stripe.subscriptions.retrieve(id, { expand: ['discounts'] })) as unknown as ProcessorSubscription,
    );
  }

  retrieveInvoice(id: string): Promise<ProcessorInvoice> {
    return readOrThrottle(async () => (await this.stripe.invoices.retrieve(id)) as unknown as ProcessorInvoice);
  }

  retrieveCustomer(id: string): Promise<ProcessorCustomer> {
    return readOrThrottle(async () => (await this.stripe.customers.retrieve(id)) as unknown as ProcessorCustomer);
  }

  private request(
    resource: ListedResource,
    paging: { limit: number; starting_after?: string },
    since?: number,
  ): Promise<{ data: unknown[]; has_more: boolean }> {
    if (resource === 'customers') return this.stripe.customers.list(paging);
    if (resource === 'subscriptions') return this.stripe.subscriptions.list({ ...paging, status: 'all', expand: ['data.discounts'] });
    if (resource === 'invoices') return this.stripe.invoices.list(paging);
    return this.stripe.events.list({ ...paging, ...(since !== undefined ? { created: { gte: since } } : {}) });
  }

  private async probe(read: RequiredRead): Promise<void> {
    if (read === 'prices') await this.stripe.prices.list({ limit: 1 });
    else await this.request(read, { limit: 1 });
  }
}

function keyError(error: ProcessorError, read: RequiredRead): ApiError {
  if (error.statusCode === 401) {
    return new ApiError('PROCESSOR_KEY_INVALID', 'The payment processor did not recognise this key.', { param: 'key' });
  }
  if (error.statusCode === 403) {
    return new ApiError('PROCESSOR_KEY_MISSING_PERMISSION', `The key may not read ${read}.`, {
      param: 'key',
      remediation: `Edit the restricted key at the processor and grant "${PERMISSION_LABELS[read]}" (the sync reads customers, subscriptions, invoices, prices and events), then connect it again.`,
    });
  }
  return new ApiError('PROCESSOR_UNAVAILABLE', 'The payment processor did not answer the key check; nothing was connected.', {
    remediation: 'Retry in a few moments.',
  });
}

/** Makes readers for restricted keys, pointed at STRIPE_API_URL when set. */
@Injectable()
export class ProcessorClients {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  reader(key: string): ProcessorReader {
    return new ProcessorReader(new Stripe(key, this.options()));
  }

  private options(): ConstructorParameters<typeof Stripe>[1] {
    const base = { maxNetworkRetries: 0, timeout: TIMEOUT_MS };
    if (!this.config.processorApiUrl) return base;
    const url = new URL(this.config.processorApiUrl);
    return {
      ...base,
      host: url.hostname,
      port: url.port || (url.protocol === 'https:' ? '443' : '80'),
      protocol: url.protocol === 'https:' ? 'https' : 'http',
    };
  }
}
