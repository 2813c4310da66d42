import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { listPage, newestFirst } from '../common/http/list-page';
import { Paged } from '../common/http/reply';
import { newId } from '../common/ids/ids';
import { normalizeEmail } from '../common/validation/email-field';
import { Database } from '../infra/database/database';
import type { ProjectRef } from '../projects/project-ref';
import { ContactStage, laterStage } from './contact-stages';
import { ContactDto, toContactDto } from './dto/contact.dto';
import { ListContactsQueryDto } from './dto/list-contacts-query.dto';
import { ConsentRecord, ContactDetails, ContactEntity } from './entities/contact.entity';

export interface ContactUpsert {
  email?: string | null;
  userId?: string | null;
  stage?: ContactStage;
  details?: ContactDetails;
  consents?: Record<string, ConsentRecord['status']>;
  paying?: boolean;
}

/**
 * Contacts: the people every module meets. Modules call `upsertContact` inside their own
 * transaction; it finds the person by email or user id and merges what is new:
 * - details: shallow merge, new values win; consents: per purpose, new values win;
 * - stage: only moves forward (lead → waitlist → invited → user); paying: set when given.
 * When an identify links a user id and an email that were two contacts, they become one (the
 * user-id contact keeps its id). Modules therefore refer to people by email or user id, never by
 * contact id.
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
    if (!email && !userId) throw new Error('upsertContact needs an email or a user id');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const matches = await this.lockMatches(em, projectId, email, userId);
      if (matches.length > 0) return this.mergeInto(em, matches, { ...input, email, userId });
      const inserted = await this.insertIfAbsent(em, projectId, { ...input, email, userId });
      if (inserted) return inserted;
      // A concurrent transaction inserted the same person first; lock and merge into theirs.
    }
    throw new Error('upsertContact could not settle after concurrent inserts');
  }

  async listContacts(project: ProjectRef, query: ListContactsQueryDto): Promise<Paged<ContactDto>> {
    const qb = this.db.manager.createQueryBuilder(ContactEntity, 'c').where('c.project_id = :projectId', { projectId: project.id });
    if (query.stage) qb.andWhere('c.stage = :stage', { stage: query.stage });
    if (query.paying) qb.andWhere('c.paying = :paying', { paying: query.paying === 'true' });
    if (query.consent) {
      const [purpose, status = 'granted'] = query.consent.split(':');
      qb.andWhere(`c.consents -> :purpose ->> 'status' = :consentStatus`, { purpose, consentStatus: status });
    }
    (query.detail ?? []).forEach((filter, index) => {
      const separator = filter.indexOf('=');
      qb.andWhere(`c.details ->> :detailKey${index} = :detailValue${index}`, {
        [`detailKey${index}`]: filter.slice(0, separator),
        [`detailValue${index}`]: filter.slice(separator + 1),
      });
    });
    return listPage(qb, query, newestFirst('ct'), toContactDto);
  }

  private async lockMatches(em: EntityManager, projectId: string, email: string | null, userId: string | null): Promise<ContactEntity[]> {
    const qb = em
      .createQueryBuilder(ContactEntity, 'c')
      .setLock('pessimistic_write')
      .where('c.project_id = :projectId', { projectId })
      .orderBy('c.id', 'ASC');
    if (email && userId) qb.andWhere('(c.email = :email OR c.user_id = :userId)', { email, userId });
    else if (email) qb.andWhere('c.email = :email', { email });
    else qb.andWhere('c.user_id = :userId', { userId });
    return qb.getMany();
  }

  private async insertIfAbsent(em: EntityManager, projectId: string, input: ContactUpsert): Promise<ContactEntity | null> {
    const now = this.clock.now();
    const row = Object.assign(new ContactEntity(), {
      id: newId('ct'),
      projectId,
      email: input.email ?? null,
      userId: input.userId ?? null,
      stage: input.stage ?? 'lead',
      consents: this.consentRecords(input.consents, now),
      details: input.details ?? {},
      paying: input.paying ?? false,
      createdAt: now,
      updatedAt: now,
    });
    // Both partial unique indexes (email, user id) arbitrate; a loser inserts nothing.
    const result = await em.createQueryBuilder().insert().into(ContactEntity).values(row).orIgnore().returning(['id']).execute();
    return (result.raw as unknown[]).length > 0 ? row : null;
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
      await em.delete(ContactEntity, { id: other.id });
    }
    survivor.email = input.email ?? survivor.email;
    survivor.userId = input.userId ?? survivor.userId;
    survivor.stage = laterStage(survivor.stage, input.stage);
    survivor.details = { ...survivor.details, ...(input.details ?? {}) };
    survivor.consents = { ...survivor.consents, ...this.consentRecords(input.consents, now) };
    if (input.paying !== undefined) survivor.paying = input.paying;
    survivor.updatedAt = now;
    await em.save(ContactEntity, survivor);
    return survivor;
  }

  private consentRecords(consents: ContactUpsert['consents'], now: Date): Record<string, ConsentRecord> {
    const records: Record<string, ConsentRecord> = {};
    for (const [purpose, status] of Object.entries(consents ?? {})) records[purpose] = { status, updated_at: now.toISOString() };
    return records;
  }
}
