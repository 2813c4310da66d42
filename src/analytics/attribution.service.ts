import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { ContactsService } from '../contacts/contacts.service';
import { Database } from '../infra/database/database.service';
import type { ProjectRef } from '../projects/project-ref';
import { PaymentOutcomesService } from '../revenue/payment-outcomes.service';
import type { AttributionSignupRow } from '../waitlist/dto/attribution-signup';
import { SignupsService } from '../waitlist/signups.service';
import type { AttributionDto, AttributionGroup, AttributionQueryDto, AttributionRowDto } from './dto/attribution.dto';

const DEFAULT_RANGE_MS = 90 * 86_400_000;
const rate = (count: number | null, of: number): number | null =>
  count === null || of === 0 ? null : Math.round((count / of) * 1000) / 1000;

function groupValue(row: AttributionSignupRow, groupBy: AttributionGroup): string | null {
  if (groupBy === 'source') return row.channel;
  if (groupBy === 'referred') return row.referred ? 'true' : 'false';
  const value = row.source?.[groupBy];
  if (!value) return null;
  if (groupBy !== 'referrer') return value;
  try {
    return new URL(value).hostname || value;
  } catch {
    return value;
  }
}

/**
 * Attribution (Builder): the chain from a waitlist signup (with its UTM fields, referrer, channel
 * and referral) through confirmation and identify (a contact with the signup's email and a user id)
 * to the processor (that contact's customers paying now, and their MRR per currency). Signups are
 * those created in [from, to); the later steps are counted as they stand now. Without a synced
 * processor connection `paying` is null and `mrr` empty.
 */
@Injectable()
export class AttributionService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly signups: SignupsService,
    private readonly contacts: ContactsService,
    private readonly payments: PaymentOutcomesService,
  ) {}

  async getAttribution(project: ProjectRef, query: AttributionQueryDto): Promise<AttributionDto> {
    const to = query.to ? new Date(query.to) : this.clock.now();
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_RANGE_MS);
    if (from.getTime() >= to.getTime()) throw new ApiError('VALIDATION_ERROR', 'from must be before to.', { param: 'from' });
    const groupBy = query.group_by ?? 'utm_source';
    const rows = await this.signups.signupsForAttribution(project.id, from, to);
    const contacts = await this.contacts.contactsByEmails(this.db.manager, project.id, [...new Set(rows.map((row) => row.email))]);
    const contactOf = new Map(contacts.filter((contact) => contact.user_id).map((contact) => [contact.email as string, contact.id]));
    const mrr = await this.payments.mrrByContact(project.id, [...contactOf.values()]);
    const groups = new Map<string | null, AttributionRowDto & { perCurrency: Map<string, number> }>();
    for (const row of rows) {
      const value = groupValue(row, groupBy);
      const group = groups.get(value) ?? {
        value,
        signups: 0,
        confirmed: 0,
        identified: 0,
        paying: mrr ? 0 : null,
        mrr: [],
        confirmed_rate: null,
        identified_rate: null,
        paying_rate: null,
        conversion_rate: null,
        perCurrency: new Map<string, number>(),
      };
      groups.set(value, group);
      group.signups += 1;
      if (row.confirmed) group.confirmed += 1;
      const contactId = contactOf.get(row.email);
      if (!contactId) continue;
      group.identified += 1;
      const owed = mrr?.get(contactId);
      if (!owed || group.paying === null || ![...owed.values()].some((value) => value > 0)) continue;
      group.paying += 1;
      for (const [currency, value] of owed) group.perCurrency.set(currency, (group.perCurrency.get(currency) ?? 0) + value);
    }
    const list = [...groups.values()].map(({ perCurrency, ...group }) => ({
      ...group,
      mrr: [...perCurrency.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, value]) => ({ currency, mrr: value })),
      confirmed_rate: rate(group.confirmed, group.signups),
      identified_rate: rate(group.identified, group.signups),
      paying_rate: rate(group.paying, group.identified),
      conversion_rate: rate(group.paying, group.signups),
    }));
    list.sort((a, b) => b.signups - a.signups || String(a.value ?? '').localeCompare(String(b.value ?? '')));
    return { from: from.toISOString(), to: to.toISOString(), group_by: groupBy, groups: list };
  }
}
