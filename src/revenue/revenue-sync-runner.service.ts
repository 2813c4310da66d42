import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { Database } from '../infra/database/database.service';
import { PermanentFailure } from '../infra/queue/due-rows.service';
import { RevenueConnectionEntity } from './entities/revenue-connection.entity';
import { RevenueCustomerEntity } from './entities/revenue-customer.entity';
import { RevenueInvoiceEntity } from './entities/revenue-invoice.entity';
import { RevenueSubscriptionEntity } from './entities/revenue-subscription.entity';
import { RevenueSyncEntity, type RevenueSyncPhase } from './entities/revenue-sync.entity';
import { ProcessorClients, ProcessorRateLimited, type ProcessorReader } from './processor.client';
import { ProcessorKeyBox } from './processor-key-box.service';
import {
  type ProcessorCustomer,
  type ProcessorEvent,
  type ProcessorInvoice,
  type ProcessorSubscription,
  idOf,
  paidAtOf,
  subscriptionTerms,
} from './processor-objects';
import { RevenueRefresh } from './revenue-refresh.service';
import { upsertCustomers, upsertInvoices, upsertSubscriptions } from './revenue.queries';

const FULL_PASS: readonly RevenueSyncPhase[] = ['customers', 'subscriptions', 'invoices', 'figures'];
/** Events read again from a little before the last run began, so none that raced with it are missed (re-applying one is harmless). */
const EVENTS_OVERLAP_SECONDS = 300;

/**
 * One sync run, page by page. Each page's objects and the run's cursor are written in one
 * transaction, so a run that dies (a crash, a 5xx, a 429) resumes after the last stored page and
 * stores nothing twice (every write is an upsert keyed by the processor's id).
 *
 * A full pass (backfill, nightly reconcile) lists customers, then subscriptions (all statuses,
 * discounts expanded), then invoices. An incremental run reads the events list since the last run
 * and fetches the current state of each object an event names (events carry snapshots, and
 * applying them newest-first would let an older one win). Then the figures are recomputed.
 */
@Injectable()
export class RevenueSyncRunner {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly clients: ProcessorClients,
    private readonly keys: ProcessorKeyBox,
    private readonly refresh: RevenueRefresh,
  ) {}

  async run(row: RevenueSyncEntity, connection: RevenueConnectionEntity): Promise<void> {
    const reader = this.clients.reader(this.keys.open(connection.keyCiphertext));
    if (!row.startedAt) await this.begin(row);
    while (row.phase !== 'figures') {
      const more = await this.guarded(() => this.step(reader, row, connection));
      if (!more) await this.advance(row);
    }
    // The next run reads events from a little before this one began (the same for every kind:
    // a full pass reads no events, so those that raced with it are the next run's).
    const eventsSince = String(Math.floor((row.startedAt as Date).getTime() / 1000) - EVENTS_OVERLAP_SECONDS);
    await this.db.transaction(async (em) => {
      await this.refresh.run(em, connection, row.kind !== 'incremental');
      await em.update(RevenueConnectionEntity, { id: connection.id }, { eventsSince });
    });
  }

  private async begin(row: RevenueSyncEntity): Promise<void> {
    row.startedAt = this.clock.now();
    await this.db.manager.update(RevenueSyncEntity, { id: row.id }, { startedAt: row.startedAt });
  }

  /** Stores one page; answers whether the phase has more pages. */
  private async step(reader: ProcessorReader, row: RevenueSyncEntity, connection: RevenueConnectionEntity): Promise<boolean> {
    const phase = row.phase as Exclude<RevenueSyncPhase, 'figures'>;
    if (phase === 'events') return this.eventsPage(reader, row, connection);
    const page = await reader.list(phase, row.startingAfter);
    const last = page.data.at(-1)?.id ?? row.startingAfter;
    await this.db.transaction(async (em) => {
      const now = this.clock.now();
      if (phase === 'customers')
        await upsertCustomers(
          em,
          (page.data as ProcessorCustomer[]).map((c) => customerRow(connection, c, now)),
        );
      if (phase === 'subscriptions') {
        await upsertSubscriptions(
          em,
          (page.data as ProcessorSubscription[]).map((s) => subscriptionRow(connection, s, now)),
        );
      }
      if (phase === 'invoices')
        await upsertInvoices(
          em,
          (page.data as ProcessorInvoice[]).map((i) => invoiceRow(connection, i, now)),
        );
      await this.saveCursor(em, row, last, { [phase]: page.data.length });
    });
    return page.hasMore;
  }

  private async eventsPage(reader: ProcessorReader, row: RevenueSyncEntity, connection: RevenueConnectionEntity): Promise<boolean> {
    const page = await reader.list('events', row.startingAfter, Number(connection.eventsSince ?? 0));
    const touched = touchedObjects(page.data);
    const now = this.clock.now();
    const customers = await Promise.all([...touched.customers].map((id) => reader.retrieveCustomer(id)));
    const subscriptions = await Promise.all([...touched.subscriptions].map((id) => reader.retrieveSubscription(id)));
    const invoices = await Promise.all([...touched.invoices].map((id) => reader.retrieveInvoice(id)));
    await this.db.transaction(async (em) => {
      await upsertCustomers(
        em,
        customers.map((c) => customerRow(connection, c, now)),
      );
      await upsertSubscriptions(
        em,
        subscriptions.map((s) => subscriptionRow(connection, s, now)),
      );
      await upsertInvoices(
        em,
        invoices.map((i) => invoiceRow(connection, i, now)),
      );
      await this.saveCursor(em, row, page.data.at(-1)?.id ?? row.startingAfter, {
        events: page.data.length,
        customers: customers.length,
        subscriptions: subscriptions.length,
        invoices: invoices.length,
      });
    });
    return page.hasMore;
  }

  private async saveCursor(
    em: EntityManager,
    row: RevenueSyncEntity,
    startingAfter: string | null,
    counts: Partial<RevenueSyncEntity['progress']>,
  ): Promise<void> {
    row.startingAfter = startingAfter;
    const progress = { ...row.progress };
    for (const [key, value] of Object.entries(counts)) progress[key as keyof typeof progress] += value ?? 0;
    row.progress = progress;
    await em.update(RevenueSyncEntity, { id: row.id }, { startingAfter, progress });
  }

  private async advance(row: RevenueSyncEntity): Promise<void> {
    const phase = row.phase === 'events' ? 'figures' : FULL_PASS[FULL_PASS.indexOf(row.phase) + 1];
    row.phase = phase;
    row.startingAfter = null;
    await this.db.manager.update(RevenueSyncEntity, { id: row.id }, { phase, startingAfter: null });
  }

  /** A key the processor now refuses (revoked, permissions removed) will not heal by retrying. */
  private async guarded<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof ProcessorRateLimited) throw error;
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 401 || status === 403) {
        throw new PermanentFailure(`The payment processor refused the key (${status}): connect a valid restricted key again.`);
      }
      throw error;
    }
  }
}

function touchedObjects(events: ProcessorEvent[]): { customers: Set<string>; subscriptions: Set<string>; invoices: Set<string> } {
  const touched = { customers: new Set<string>(), subscriptions: new Set<string>(), invoices: new Set<string>() };
  for (const event of events) {
    const id = event.data.object.id;
    if (!id) continue;
    if (event.type.startsWith('customer.subscription.')) touched.subscriptions.add(id);
    else if (/^customer\.(created|updated|deleted)$/.test(event.type)) touched.customers.add(id);
    else if (event.type.startsWith('invoice.')) touched.invoices.add(id);
  }
  return touched;
}

function customerRow(connection: RevenueConnectionEntity, customer: ProcessorCustomer, now: Date): RevenueCustomerEntity {
  return Object.assign(new RevenueCustomerEntity(), {
    projectId: connection.projectId,
    customerId: customer.id,
    email: matchable(customer.email ? customer.email.trim().toLowerCase() : null, 254),
    userId: matchable(customer.metadata?.user_id || null, 256),
    contactId: null,
    deleted: customer.deleted === true,
    createdAt: customer.created ? new Date(customer.created * 1000) : now,
    syncedAt: now,
  });
}

/**
 * A processor value kept to match a contact, or null when no contact could have it: the processor
 * allows longer metadata than a user_id (256) or an email (254), and one such customer must not
 * stall every sync on a column too short for it.
 */
function matchable(value: string | null, maxLength: number): string | null {
  return value !== null && value.length <= maxLength ? value : null;
}

function subscriptionRow(connection: RevenueConnectionEntity, subscription: ProcessorSubscription, now: Date): RevenueSubscriptionEntity {
  return Object.assign(new RevenueSubscriptionEntity(), {
    projectId: connection.projectId,
    subscriptionId: subscription.id,
    customerId: idOf(subscription.customer) ?? '',
    status: subscription.status,
    terms: subscriptionTerms(subscription),
    syncedAt: now,
  });
}

function invoiceRow(connection: RevenueConnectionEntity, invoice: ProcessorInvoice, now: Date): RevenueInvoiceEntity {
  return Object.assign(new RevenueInvoiceEntity(), {
    projectId: connection.projectId,
    invoiceId: invoice.id,
    customerId: idOf(invoice.customer) ?? '',
    status: invoice.status ?? 'draft',
    currency: invoice.currency.toLowerCase(),
    amountPaid: String(invoice.amount_paid ?? 0),
    paidAt: paidAtOf(invoice),
    syncedAt: now,
  });
}
