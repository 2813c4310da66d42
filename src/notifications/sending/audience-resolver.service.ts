import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ContactsService } from '../../contacts/contacts.service';
import type { AudienceInputDto } from './dto/create-notification.dto';
import { NOTIFICATION_LIMITS } from './notification-input';

/** A group resolved to the user ids it reaches. */
export interface ResolvedAudience {
  /** Distinct user ids, at most groupPeopleMax + 1 (enough to tell that the group is too big). */
  userIds: string[];
  /** Distinct user ids reached (exact up to the cap; above it, overlaps of a filter with the lists are not removed). */
  reachable: number;
  /** Named people who have no user id the service knows. */
  unreachable: number;
  /** Up to 20 of them: the email, or the contact id when the contact has no email. */
  unreachableSample: string[];
}

/**
 * Group resolution (spec: Create input → user_ids, emails, contact_ids, contacts). A bell knows a
 * person by user id, so:
 * - `user_ids` are reachable as given (a person who has never opened the bell sees it when they do);
 * - `emails` and `contact_ids` reach the user id of their contact; an address or id with no contact,
 *   or a contact with no user id yet, is unreachable;
 * - `contacts` (the `GET /v1/contacts` filter) reaches every matching contact with a user id; the
 *   matching contacts without one are unreachable.
 * All fields may be combined; the people are the union, deduplicated by user id.
 */
@Injectable()
export class AudienceResolver {
  constructor(private readonly contacts: ContactsService) {}

  async resolve(em: EntityManager, projectId: string, input: AudienceInputDto): Promise<ResolvedAudience> {
    const cap = NOTIFICATION_LIMITS.groupPeopleMax + 1;
    const reached = new Set<string>(input.user_ids ?? []);
    const unreachable = new Set<string>();
    let uncountedReachable = 0;
    let uncountedUnreachable = 0;

    const emails = [...new Set(input.emails ?? [])];
    const byEmail = new Map((await this.contacts.contactsByEmails(em, projectId, emails)).map((c) => [c.email, c.user_id]));
    for (const email of emails) addPerson(reached, unreachable, byEmail.get(email) ?? null, email);

    const contactIds = [...new Set(input.contact_ids ?? [])];
    const byId = new Map((await this.contacts.contactsByIds(em, projectId, contactIds)).map((c) => [c.id, c.user_id]));
    for (const id of contactIds) addPerson(reached, unreachable, byId.get(id) ?? null, id);

    if (input.contacts) {
      const sampleSize = NOTIFICATION_LIMITS.unreachableSampleMax;
      const matches = await this.contacts.contactsMatching(em, projectId, input.contacts, cap, sampleSize);
      for (const contact of matches.withUserId) reached.add(contact.user_id as string);
      for (const contact of matches.withoutUserIdSample) unreachable.add(contact.email ?? contact.id);
      uncountedReachable = matches.withUserIdCount - matches.withUserId.length;
      uncountedUnreachable = matches.withoutUserIdCount - matches.withoutUserIdSample.length;
    }

    const userIds = [...reached].slice(0, cap);
    return {
      userIds,
      reachable: reached.size + uncountedReachable,
      unreachable: unreachable.size + uncountedUnreachable,
      unreachableSample: [...unreachable].slice(0, NOTIFICATION_LIMITS.unreachableSampleMax),
    };
  }
}

function addPerson(reached: Set<string>, unreachable: Set<string>, userId: string | null, label: string): void {
  if (userId) reached.add(userId);
  else unreachable.add(label);
}
