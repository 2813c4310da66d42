import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { newId } from '../common/ids/ids';
import { ContactsService } from '../contacts/contacts.service';
import { ErasureRegistry } from '../infra/erasure/erasure-registry.service';
import { RevenueConnectionEntity } from './entities/revenue-connection.entity';
import type { RevenueCustomerEntity } from './entities/revenue-customer.entity';
import { RevenueCustomerMrrEntity, RevenueMovementEntity } from './entities/revenue-customer-mrr.entity';
import type { RevenueSubscriptionEntity } from './entities/revenue-subscription.entity';
import { classifyMovement, subscriptionMrr, type Movement } from './mrr';
import {
  customersWithMovements,
  forgetPersonOnCustomers,
  insertMovements,
  listCustomerMrr,
  listCustomers,
  listSubscriptions,
  saveCustomerMrr,
  setCustomerContact,
} from './revenue.queries';

const keyOf = (customerId: string, currency: string) => `${customerId}:${currency}`;

/**
 * What a sync leaves behind once the objects are stored, in one transaction: each customer matched
 * to a contact (by `user_id` in the customer's metadata, else by an email identify linked to a user
 * id), `paying` on exactly the contacts with an active or past-due subscription that pays, and the
 * MRR movements since the last sync.
 *
 * Movements compare each customer's MRR per currency with the last sync's. A customer seen for the
 * first time is `new` at their subscription's start (the trial's end if later): so a backfill
 * rebuilds this month's new MRR. A churn is dated at the end of the paid period when the processor
 * says when it ended; every other movement at the sync that saw it.
 */
@Injectable()
export class RevenueRefresh {
  constructor(
    private readonly clock: Clock,
    private readonly contacts: ContactsService,
    erasure: ErasureRegistry,
  ) {
    // A later sync would match the customer again from the processor's data: erasing a person
    // who still pays is also a matter for the processor account.
    erasure.contribute('revenue_customers', forgetPersonOnCustomers);
  }

  async run(em: EntityManager, connection: RevenueConnectionEntity, fullPass: boolean): Promise<void> {
    const now = this.clock.now();
    const customers = await listCustomers(em, connection.projectId);
    const subscriptions = await listSubscriptions(em, connection.projectId);
    await this.match(em, connection.projectId, customers);
    await this.markPaying(em, connection.projectId, customers, subscriptions, now);
    await this.recordMovements(em, connection.projectId, subscriptions, now);
    await em.update(RevenueConnectionEntity, { id: connection.id }, { lastSyncedAt: now, ...(fullPass ? { lastFullSyncAt: now } : {}) });
  }

  private async match(em: EntityManager, projectId: string, customers: RevenueCustomerEntity[]): Promise<void> {
    const userIds = customers.flatMap((c) => (c.userId ? [c.userId] : []));
    const emails = customers.flatMap((c) => (c.email ? [c.email] : []));
    const candidates = await this.contacts.contactsForCustomers(em, projectId, userIds, emails);
    const byUserId = new Map(candidates.filter((c) => c.user_id).map((c) => [c.user_id as string, c.id]));
    const byEmail = new Map(candidates.filter((c) => c.email && c.user_id).map((c) => [c.email as string, c.id]));
    for (const customer of customers) {
      const contactId = (customer.userId && byUserId.get(customer.userId)) || (customer.email && byEmail.get(customer.email)) || null;
      if (contactId === customer.contactId) continue;
      customer.contactId = contactId;
      await setCustomerContact(em, projectId, customer.customerId, contactId);
    }
  }

  private async markPaying(
    em: EntityManager,
    projectId: string,
    customers: RevenueCustomerEntity[],
    subscriptions: RevenueSubscriptionEntity[],
    now: Date,
  ): Promise<void> {
    const payingCustomers = new Set(
      subscriptions
        .filter((s) => ['active', 'past_due'].includes(s.status) && subscriptionMrr(s.terms, now).mrr > 0)
        .map((s) => s.customerId),
    );
    const contactIds = customers.flatMap((c) => (c.contactId && payingCustomers.has(c.customerId) ? [c.contactId] : []));
    await this.contacts.setPayingContacts(em, projectId, [...new Set(contactIds)]);
  }

  private async recordMovements(
    em: EntityManager,
    projectId: string,
    subscriptions: RevenueSubscriptionEntity[],
    now: Date,
  ): Promise<void> {
    const current = new Map<string, number>();
    const byKey = new Map<string, RevenueSubscriptionEntity[]>();
    for (const subscription of subscriptions) {
      const key = keyOf(subscription.customerId, subscription.terms.currency);
      current.set(key, (current.get(key) ?? 0) + subscriptionMrr(subscription.terms, now).mrr);
      byKey.set(key, [...(byKey.get(key) ?? []), subscription]);
    }
    const previous = new Map((await listCustomerMrr(em, projectId)).map((row) => [keyOf(row.customerId, row.currency), row]));
    const moved = await customersWithMovements(em, projectId);
    const movements: RevenueMovementEntity[] = [];
    for (const key of new Set([...current.keys(), ...previous.keys()])) {
      const [customerId, currency] = [key.slice(0, key.lastIndexOf(':')), key.slice(key.lastIndexOf(':') + 1)];
      const before = previous.get(key);
      const from = Number(before?.mrr ?? 0);
      const to = current.get(key) ?? 0;
      const kind = classifyMovement(from, to, moved.has(key));
      if (kind) {
        const since = before?.updatedAt ?? null;
        const occurredAt = movementTime(kind, byKey.get(key) ?? [], since, now);
        movements.push(
          Object.assign(new RevenueMovementEntity(), {
            id: newId('rvm'),
            projectId,
            customerId,
            currency,
            kind,
            fromMrr: String(from),
            toMrr: String(to),
            occurredAt,
          }),
        );
      }
      if (kind || !before) {
        await saveCustomerMrr(
          em,
          Object.assign(new RevenueCustomerMrrEntity(), { projectId, customerId, currency, mrr: String(to), updatedAt: now }),
        );
      }
    }
    await insertMovements(em, movements);
  }
}

const time = (iso: string | null) => (iso ? new Date(iso).getTime() : null);

/** When a movement happened, as far as the subscriptions tell; `now` otherwise. */
function movementTime(kind: Movement, subscriptions: RevenueSubscriptionEntity[], since: Date | null, now: Date): Date {
  const bounded = (candidates: Array<number | null>, pick: (values: number[]) => number): Date => {
    const floor = since?.getTime() ?? Number.NEGATIVE_INFINITY;
    const values = candidates.filter((value): value is number => value !== null && value > floor && value <= now.getTime());
    return values.length ? new Date(pick(values)) : now;
  };
  if (kind === 'new' && since === null) {
    const paying = subscriptions.filter((s) => subscriptionMrr(s.terms, now).mrr > 0);
    return bounded(
      paying.map((s) => Math.max(time(s.terms.start) ?? 0, time(s.terms.trialEnd) ?? 0) || null),
      (v) => Math.min(...v),
    );
  }
  if (kind === 'churned') {
    const ends = subscriptions.map((s) => time(s.terms.endedAt) ?? (s.terms.cancelAtPeriodEnd ? time(s.terms.currentPeriodEnd) : null));
    return bounded(ends, (v) => Math.max(...v));
  }
  return now;
}
