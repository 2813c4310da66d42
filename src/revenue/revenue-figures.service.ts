import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { WithMeta } from '../common/http/reply';
import { ContactsService } from '../contacts/contacts.service';
import { Database } from '../infra/database/database.service';
import type { ProjectRef } from '../projects/project-ref';
import { CurrencyFiguresDto, CustomerRevenueDto, MrrMovementsDto, RevenueFiguresDto, RevenueHistoryDto } from './dto/revenue-figures.dto';
import type { RevenueMovementEntity } from './entities/revenue-customer-mrr.entity';
import type { RevenueSubscriptionEntity } from './entities/revenue-subscription.entity';
import { subscriptionMrr } from './mrr';
import { notConnected } from './revenue-connection.service';
import { customersOfContact, findConnection, listMovements, listSubscriptions } from './revenue.queries';

/** The method in one paragraph, answered as `meta.method` with every figure (docs/revenue.md explains it). */
export const REVENUE_METHOD =
  'MRR per currency in its minor unit, never converted. Each licensed recurring price is normalised to a month (monthly ÷ interval count, yearly ÷ 12, weekly × 52 ÷ 12, daily × 365 ÷ 12) and multiplied by its quantity; recurring discounts (forever, or repeating until their end) are deducted, a percentage of what is left or an amount per invoice normalised to a month; one-time discounts, one-time and metered charges and tiered prices without a unit amount are excluded; trials are excluded; active and past-due subscriptions count; a subscription cancelled at period end counts until that end, when it churns. Each subscription is rounded once. Movements compare each customer per currency between syncs: new (first time paying, dated at the subscription start or trial end), expansion, contraction, churned (dated at the end of the paid period), reactivated. ARR = MRR × 12.';

const EMPTY_MOVEMENTS = (): MrrMovementsDto => ({ new: 0, expansion: 0, contraction: 0, churned: 0, reactivated: 0, net: 0 });

function monthStart(date: Date, offset = 0): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1));
}

/** Ends are exclusive; "now" includes what a sync recorded at this very instant. */
const justAfter = (date: Date) => new Date(date.getTime() + 1);

const monthName = (start: Date) => start.toISOString().slice(0, 7);

function addMovement(totals: MrrMovementsDto, movement: RevenueMovementEntity): void {
  const from = Number(movement.fromMrr);
  const to = Number(movement.toMrr);
  if (movement.kind === 'new') totals.new += to - from;
  else if (movement.kind === 'reactivated') totals.reactivated += to - from;
  else if (movement.kind === 'expansion') totals.expansion += to - from;
  else if (movement.kind === 'contraction') totals.contraction += from - to;
  else totals.churned += from - to;
  totals.net = totals.new + totals.reactivated + totals.expansion - totals.contraction - totals.churned;
}

/**
 * The figures (GET /v1/revenue, /history, /customers/{contact_id}), all computed from what the
 * last sync stored, so that they agree with each other: MRR at a time is the last movement of each
 * customer and currency before it; `active_subscriptions` reads each subscription's terms at that
 * time. History before the connection shows what the first sync could rebuild: customers paying
 * then appear as new at their start, past upgrades and customers who had already left do not.
 */
@Injectable()
export class RevenueFiguresService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly contacts: ContactsService,
  ) {}

  async getRevenue(project: ProjectRef): Promise<WithMeta<RevenueFiguresDto>> {
    const { asOf, movements, subscriptions } = await this.load(project);
    const now = this.clock.now();
    return new WithMeta(this.month(monthStart(now), justAfter(now), asOf, movements, subscriptions), { method: REVENUE_METHOD });
  }

  async getRevenueHistory(project: ProjectRef, months = 12): Promise<WithMeta<RevenueHistoryDto>> {
    const { asOf, movements, subscriptions } = await this.load(project);
    const now = this.clock.now();
    const list: RevenueFiguresDto[] = [];
    for (let offset = 1 - months; offset <= 0; offset += 1) {
      const start = monthStart(now, offset);
      const next = monthStart(now, offset + 1);
      list.push(this.month(start, next.getTime() > now.getTime() ? justAfter(now) : next, asOf, movements, subscriptions));
    }
    return new WithMeta({ as_of: asOf?.toISOString() ?? null, months: list }, { method: REVENUE_METHOD });
  }

  async getCustomerRevenue(project: ProjectRef, contactId: string): Promise<WithMeta<CustomerRevenueDto>> {
    await this.contacts.getContact(project, contactId);
    const connection = await findConnection(this.db.manager, project.id);
    if (!connection) throw notConnected();
    const at = connection.lastSyncedAt ?? this.clock.now();
    const customers = await customersOfContact(this.db.manager, project.id, contactId);
    const ids = customers.map((customer) => customer.customerId);
    const subscriptions = ids.length ? await listSubscriptions(this.db.manager, project.id, ids) : [];
    const totals = new Map<string, number>();
    const lines = subscriptions.map((subscription) => {
      const computed = subscriptionMrr(subscription.terms, at);
      totals.set(subscription.terms.currency, (totals.get(subscription.terms.currency) ?? 0) + computed.mrr);
      return {
        subscription_id: subscription.subscriptionId,
        customer_id: subscription.customerId,
        status: subscription.status,
        currency: subscription.terms.currency,
        mrr: computed.mrr,
        excluded_reason: computed.excludedReason,
        items: computed.items,
        discounts: computed.discounts,
      };
    });
    const mrr = [...totals.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, value]) => ({ currency, mrr: value }));
    return new WithMeta(
      { contact_id: contactId, as_of: connection.lastSyncedAt?.toISOString() ?? null, customer_ids: ids, mrr, subscriptions: lines },
      { method: REVENUE_METHOD },
    );
  }

  private async load(project: ProjectRef) {
    const connection = await findConnection(this.db.manager, project.id);
    if (!connection) throw notConnected();
    const movements = await listMovements(this.db.manager, project.id, justAfter(this.clock.now()));
    const subscriptions = await listSubscriptions(this.db.manager, project.id);
    return { asOf: connection.lastSyncedAt, movements, subscriptions };
  }

  /** The figures of the month starting at `start`, with MRR as of `end` (exclusive). */
  private month(
    start: Date,
    end: Date,
    asOf: Date | null,
    movements: RevenueMovementEntity[],
    subscriptions: RevenueSubscriptionEntity[],
  ): RevenueFiguresDto {
    const latest = new Map<string, { currency: string; mrr: number }>();
    const byCurrency = new Map<string, CurrencyFiguresDto>();
    const figures = (currency: string): CurrencyFiguresDto => {
      let found = byCurrency.get(currency);
      if (!found) {
        found = { currency, mrr: 0, arr: 0, paying_customers: 0, active_subscriptions: 0, movements: EMPTY_MOVEMENTS() };
        byCurrency.set(currency, found);
      }
      return found;
    };
    for (const movement of movements) {
      const at = movement.occurredAt.getTime();
      if (at >= end.getTime()) continue;
      latest.set(`${movement.customerId}:${movement.currency}`, { currency: movement.currency, mrr: Number(movement.toMrr) });
      if (at >= start.getTime()) addMovement(figures(movement.currency).movements, movement);
    }
    for (const { currency, mrr } of latest.values()) {
      if (mrr <= 0) continue;
      const entry = figures(currency);
      entry.mrr += mrr;
      entry.paying_customers += 1;
    }
    const measuredAt = asOf && asOf.getTime() < end.getTime() ? asOf : end;
    for (const subscription of subscriptions) {
      if (subscriptionMrr(subscription.terms, measuredAt).mrr > 0) figures(subscription.terms.currency).active_subscriptions += 1;
    }
    const currencies = [...byCurrency.values()]
      .map((entry) => ({ ...entry, arr: entry.mrr * 12 }))
      .sort((a, b) => a.currency.localeCompare(b.currency));
    return { month: monthName(start), as_of: asOf?.toISOString() ?? null, currencies };
  }
}
