import { Injectable } from '@nestjs/common';
import { ContactsService } from '../contacts/contacts.service';
import { Database } from '../infra/database/database.service';
import { findConnection, mrrOfContacts, paidInvoicesOfPeople } from './revenue.queries';

/** Who, among some people, paid for the first time, and who paid more than before, within a window. */
export interface PaymentOutcomes {
  paid: Set<string>;
  upgraded: Set<string>;
}

/**
 * Payment outcomes by user id, for the changelog's after-reading comparison. A person is their
 * processor customers matched by `user_id` in the customer's metadata or through their contact
 * (an email identify linked); their paid invoices (amount above zero) are read across customers.
 * - paid: the person's first ever paid invoice falls in [from, to);
 * - upgraded: a paid invoice in the window is larger than the person's previous paid invoice in
 *   the same currency (a first invoice is never an upgrade).
 * Null when the project has no connection, or it has not finished a sync yet.
 */
@Injectable()
export class PaymentOutcomesService {
  constructor(
    private readonly db: Database,
    private readonly contacts: ContactsService,
  ) {}

  async outcomes(projectId: string, userIds: readonly string[], from: Date, to: Date): Promise<PaymentOutcomes | null> {
    const connection = await findConnection(this.db.manager, projectId);
    if (!connection?.lastSyncedAt) return null;
    const contacts = await this.contacts.contactsForCustomers(this.db.manager, projectId, userIds, []);
    const userOfContact = new Map(contacts.map((contact) => [contact.id, contact.user_id as string]));
    const wanted = new Set(userIds);
    const invoices = await paidInvoicesOfPeople(this.db.manager, projectId, [...wanted], [...userOfContact.keys()]);
    const result: PaymentOutcomes = { paid: new Set(), upgraded: new Set() };
    const seen = new Set<string>();
    const lastAmount = new Map<string, number>();
    for (const invoice of invoices) {
      const person = invoice.user_id && wanted.has(invoice.user_id) ? invoice.user_id : userOfContact.get(invoice.contact_id ?? '');
      if (!person) continue;
      const inWindow = invoice.paid_at.getTime() >= from.getTime() && invoice.paid_at.getTime() < to.getTime();
      const amount = Number(invoice.amount_paid);
      const key = `${person}:${invoice.currency}`;
      if (!seen.has(person) && inWindow) result.paid.add(person);
      const previous = lastAmount.get(key);
      if (inWindow && previous !== undefined && amount > previous) result.upgraded.add(person);
      seen.add(person);
      lastAmount.set(key, amount);
    }
    return result;
  }

  /**
   * Each contact's MRR per currency as of the last sync (only contacts with some), for
   * attribution; null when the project has no connection that has synced.
   */
  async mrrByContact(projectId: string, contactIds: readonly string[]): Promise<Map<string, Map<string, number>> | null> {
    const connection = await findConnection(this.db.manager, projectId);
    if (!connection?.lastSyncedAt) return null;
    const result = new Map<string, Map<string, number>>();
    for (const row of await mrrOfContacts(this.db.manager, projectId, contactIds)) {
      const perCurrency = result.get(row.contact_id) ?? new Map<string, number>();
      perCurrency.set(row.currency, Number(row.mrr));
      result.set(row.contact_id, perCurrency);
    }
    return result;
  }
}
