import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { listPage, newestFirst } from '../common/http/list-page';
import { Paged } from '../common/http/reply';
import { newId } from '../common/ids/ids';
import { normalizeEmail } from '../common/validation/email-field';
import { Database } from '../infra/database/database.service';
import type { ProjectRef } from '../projects/project-ref';
import { ContactStage, laterStage } from './contact-stages';
import { contactNotFound } from './contact-errors';
// The fragments other modules compose into their statements (see contacts.queries.ts).
export { contactOfUserExists, contactUserIdsCreatedBefore } from './contacts.queries';
import {
  ContactFilter,
  ContactKey,
  ContactKeyRow,
  deleteContact,
  insertContactIfAbsent,
  lockContactsByEmailOrUserId,
  updateContact,
  setPayingContacts,
  upsertContactsByKey,
  whereContactsMatch,
} from './contacts.queries';
import { ContactDto, toContactDto } from './dto/contact.dto';
import { ListContactsQueryDto } from './dto/list-contacts-query.dto';
import { ConsentRecord, ContactDetails, ContactEntity } from './entities/contact.entity';

interface ContactUpsert {
  email?: string | null;
  userId?: string | null;
  stage?: ContactStage;
  details?: ContactDetails;
  consents?: Record<string, ConsentRecord['status']>;
  paying?: boolean;
}

/** Who a contact is, for resolving groups to user ids. */
interface ContactIdentity {
  id: string;
  email: string | null;
  user_id: string | null;
}

interface ContactMatches {
  withUserId: ContactIdentity[];
  withoutUserIdSample: ContactIdentity[];
  withUserIdCount: number;
  withoutUserIdCount: number;
}

/** Several people known by email, for `upsertContactsByEmail`. */
type EmailContactUpsert = Omit<ContactUpsert, 'email' | 'userId'> & { email: string };

/**
 * Contacts: the people every module meets. Modules call `upsertContact` (or `upsertContactsByEmail`
 * for many people) inside their own transaction; it finds the person by email or user id and
 * merges what is new:
 * - details: shallow merge, new values win; consents: per purpose, new values win;
 * - stage: only moves forward (lead → waitlist → invited → user); paying: set when given.
 * When an identify links a user id and an email that were two contacts, they become one (the
 * user-id contact keeps its id). Modules therefore refer to people by email or user id, never by
 * contact id.
 *
 * A person known by one key (the common case: waitlist, feedback from a browser) is one statement
 * (contacts.queries.ts); only linking an email to a user id reads and locks the matches first,
 * since it may merge two contacts. Several people are upserted in email order, so two
 * transactions that touch the same people lock their rows in the same order.
 */
@Injectable()
export class ContactsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async upsertContact(em: EntityManager, projectId: string, input: ContactUpsert): Promise<ContactEntity> {
    const email = input.email ? normalizeEmail(input.email) : null;
    const userId = input.userId ?? null;
    if (email && userId) return this.linkContact(em, projectId, { ...input, email, userId });
    if (!email && !userId) throw new Error('upsertContact needs an email or a user id');
    const [key, value]: [ContactKey, string] = email ? ['email', email] : ['user_id', userId as string];
    const now = this.clock.now();
    const [contact] = await upsertContactsByKey(em, projectId, key, [this.keyRow(value, input, now)], now);
    return contact;
  }

  /** Many people by email in one statement; the emails must be distinct once normalised. */
  async upsertContactsByEmail(em: EntityManager, projectId: string, inputs: readonly EmailContactUpsert[]): Promise<void> {
    const now = this.clock.now();
    const rows = inputs.map((input) => this.keyRow(normalizeEmail(input.email), input, now)).sort((a, b) => (a.key < b.key ? -1 : 1));
    if (rows.some((row, index) => index > 0 && rows[index - 1].key === row.key)) {
      throw new Error('upsertContactsByEmail needs distinct emails');
    }
    await upsertContactsByKey(em, projectId, 'email', rows, now);
  }

  async listContacts(project: ProjectRef, query: ListContactsQueryDto): Promise<Paged<ContactDto>> {
    const qb = this.db.manager.createQueryBuilder(ContactEntity, 'c').where('c.project_id = :projectId', { projectId: project.id });
    whereContactsMatch(qb, query);
    return listPage(qb, query, newestFirst('ct'), toContactDto);
  }

  async getContact(project: ProjectRef, contactId: string): Promise<ContactDto> {
    const row = await this.db.manager.findOne(ContactEntity, { where: { projectId: project.id, id: contactId } });
    if (!row) throw contactNotFound(contactId);
    return toContactDto(row);
  }

  /** The contacts with these (normalised) emails; people not known are simply absent. */
  async contactsByEmails(em: EntityManager, projectId: string, emails: readonly string[]): Promise<ContactIdentity[]> {
    if (emails.length === 0) return [];
    return this.identities(em, projectId).andWhere('c.email = ANY(:emails)', { emails }).getRawMany<ContactIdentity>();
  }

  async contactsByIds(em: EntityManager, projectId: string, contactIds: readonly string[]): Promise<ContactIdentity[]> {
    if (contactIds.length === 0) return [];
    return this.identities(em, projectId).andWhere('c.id = ANY(:contactIds)', { contactIds }).getRawMany<ContactIdentity>();
  }

  /**
   * People matching a `GET /v1/contacts` filter: up to `limit` of those with a user id (newest
   * first), how many match with and without one, and up to `sampleSize` of those without.
   */
  async contactsMatching(
    em: EntityManager,
    projectId: string,
    filter: ContactFilter,
    limit: number,
    sampleSize: number,
  ): Promise<ContactMatches> {
    const matching = () => whereContactsMatch(this.identities(em, projectId), filter);
    // One after another: inside a transaction they share one connection anyway.
    const withUserId = await matching()
      .andWhere('c.user_id IS NOT NULL')
      .orderBy('c.id', 'DESC')
      .limit(limit)
      .getRawMany<ContactIdentity>();
    const withoutUserId = await matching()
      .andWhere('c.user_id IS NULL')
      .orderBy('c.id', 'DESC')
      .limit(sampleSize)
      .getRawMany<ContactIdentity>();
    const counts = await whereContactsMatch(
      em.createQueryBuilder(ContactEntity, 'c').where('c.project_id = :projectId', { projectId }),
      filter,
    )
      .select('COUNT(c.user_id)', 'with_user_id')
      .addSelect('COUNT(*) - COUNT(c.user_id)', 'without_user_id')
      .getRawOne<{ with_user_id: string; without_user_id: string }>();
    return {
      withUserId,
      withoutUserIdSample: withoutUserId,
      withUserIdCount: Number(counts?.with_user_id ?? 0),
      withoutUserIdCount: Number(counts?.without_user_id ?? 0),
    };
  }

  /**
   * Contacts a payment-processor customer can be: by user id, or by an email that identify linked
   * to a user id (a contact with both). The revenue module decides which one a customer is.
   */
  async contactsForCustomers(
    em: EntityManager,
    projectId: string,
    userIds: readonly string[],
    emails: readonly string[],
  ): Promise<ContactIdentity[]> {
    if (userIds.length === 0 && emails.length === 0) return [];
    return this.identities(em, projectId)
      .andWhere('(c.user_id = ANY(:userIds) OR (c.email = ANY(:emails) AND c.user_id IS NOT NULL))', { userIds, emails })
      .getRawMany<ContactIdentity>();
  }

  /** Makes exactly these contacts of the project `paying` (the processor connection's answer); every other loses the flag. */
  async setPayingContacts(em: EntityManager, projectId: string, contactIds: readonly string[]): Promise<void> {
    await setPayingContacts(em, projectId, contactIds, this.clock.now());
  }

  private identities(em: EntityManager, projectId: string) {
    return em
      .createQueryBuilder(ContactEntity, 'c')
      .select(['c.id AS id', 'c.email AS email', 'c.user_id AS user_id'])
      .where('c.project_id = :projectId', { projectId });
  }

  private keyRow(key: string, input: ContactUpsert, now: Date): ContactKeyRow {
    return {
      id: newId('ct'),
      key,
      stage: input.stage ?? 'lead',
      consents: this.consentRecords(input.consents, now),
      details: input.details ?? {},
      paying: input.paying ?? null,
    };
  }

  /** Email and user id together: may find two contacts, which become one. */
  private async linkContact(
    em: EntityManager,
    projectId: string,
    input: ContactUpsert & { email: string; userId: string },
  ): Promise<ContactEntity> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const matches = await lockContactsByEmailOrUserId(em, projectId, input.email, input.userId);
      if (matches.length > 0) return this.mergeInto(em, matches, input);
      const now = this.clock.now();
      const contact: ContactEntity = {
        id: newId('ct'),
        projectId,
        email: input.email,
        userId: input.userId,
        stage: input.stage ?? 'lead',
        consents: this.consentRecords(input.consents, now),
        details: input.details ?? {},
        paying: input.paying ?? false,
        createdAt: now,
        updatedAt: now,
      };
      if (await insertContactIfAbsent(em, contact)) return contact;
      // A concurrent transaction inserted the same person first; lock and merge into theirs.
    }
    throw new Error('upsertContact could not settle after concurrent inserts');
  }

  private async mergeInto(em: EntityManager, matches: ContactEntity[], input: ContactUpsert): Promise<ContactEntity> {
    // With two matches, the one holding the user id survives and absorbs the email-only one.
    const survivor = matches.find((row) => input.userId && row.userId === input.userId) ?? matches[0];
    const absorbed = matches.filter((row) => row.id !== survivor.id);
    const now = this.clock.now();
    for (const other of absorbed) {
      survivor.details = { ...other.details, ...survivor.details };
      survivor.consents = { ...other.consents, ...survivor.consents };
      survivor.stage = laterStage(survivor.stage, other.stage);
      survivor.paying = survivor.paying || other.paying;
      // First, so the survivor can take over its email (unique per project).
      await deleteContact(em, other.id);
    }
    survivor.email = input.email ?? survivor.email;
    survivor.userId = input.userId ?? survivor.userId;
    survivor.stage = laterStage(survivor.stage, input.stage);
    survivor.details = { ...survivor.details, ...(input.details ?? {}) };
    survivor.consents = { ...survivor.consents, ...this.consentRecords(input.consents, now) };
    if (input.paying !== undefined) survivor.paying = input.paying;
    survivor.updatedAt = now;
    await updateContact(em, survivor);
    return survivor;
  }

  private consentRecords(consents: ContactUpsert['consents'], now: Date): Record<string, ConsentRecord> {
    const records: Record<string, ConsentRecord> = {};
    for (const [purpose, status] of Object.entries(consents ?? {})) records[purpose] = { status, updated_at: now.toISOString() };
    return records;
  }
}
