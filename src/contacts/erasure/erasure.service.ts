import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { newId } from '../../common/ids/ids';
import { normalizeEmail } from '../../common/validation/email-field';
import { Database } from '../../infra/database/database.service';
import { ErasureRegistry } from '../../infra/erasure/erasure-registry.service';
import type { PersonToErase } from '../../infra/erasure/person-match';
import type { ProjectRef } from '../../projects/project-ref';
import { contactNotFound } from '../contact-errors';
import { CONTRIBUTED_ERASURE_KINDS, ContributedErasureKind, ErasureDto, ErasureRemovedDto } from './dto/erasure.dto';
import { ContactErasureEntity, ErasureActorKind } from './entities/contact-erasure.entity';
import { type ErasedPerson, deleteErasedContact, lockContact } from './erasure.queries';

/** Who asked for an erasure: an API key or a dashboard account (ids only). */
export interface ErasureActor {
  kind: ErasureActorKind;
  id: string;
}

/**
 * Erasure of one person: `DELETE /v1/contacts/{id}` removes them everywhere the project holds
 * them, found by the contact's email and user id, in one transaction with the audit row, which
 * keeps no personal data. Every module whose tables hold the person runs its own statements
 * through the erasure registry: first the person's own records (waitlist, feedback, changelog,
 * bell), then the contact goes, then the stored copies that may name them (mail, idempotent
 * answers, event payloads, the webhook delivery log, payment customers). A second erasure of
 * the same id is CONTACT_NOT_FOUND: the person is gone. Rows that only count (usage, page views
 * without a visitor) name nobody and stay.
 *
 * Only the project the contact belongs to is erased: a test-mode twin keeps data of its own, and
 * a person it holds is erased there with a test key.
 */
@Injectable()
export class ErasureService implements OnApplicationBootstrap {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly registry: ErasureRegistry,
  ) {}

  /** Every contribution must be counted in the answer, and every count must have a contributor. */
  onApplicationBootstrap(): void {
    const registered = [...this.registry.kinds()].sort();
    const documented = [...CONTRIBUTED_ERASURE_KINDS].sort();
    if (registered.join() !== documented.join()) {
      throw new Error(`Erasure contributions (${registered.join(', ')}) differ from the erasure answer's (${documented.join(', ')})`);
    }
  }

  async eraseContact(project: ProjectRef, contactId: string, actor: ErasureActor): Promise<ErasureDto> {
    return this.db.transaction(async (em) => {
      const person = await lockContact(em, project.id, contactId);
      if (!person) throw contactNotFound(contactId);
      const records = await this.registry.eraseRecords(em, personToErase(project.id, person, []));
      const contact = await deleteErasedContact(em, project.id, person.id);
      const recordIds = [...records.recordIds, ...contact.recordIds];
      const copies = await this.registry.eraseCopies(em, personToErase(project.id, person, recordIds));
      const removed: ErasureRemovedDto = { contact: contact.count, ...countsOf({ ...records.counts, ...copies }) };
      const audit = Object.assign(new ContactErasureEntity(), {
        id: newId('cer'),
        projectId: project.id,
        contactId: person.id,
        removed: { ...removed },
        actorKind: actor.kind,
        actorId: actor.id,
        erasedAt: this.clock.now(),
      });
      await em.insert(ContactErasureEntity, audit);
      return { contact_id: person.id, erased: true as const, removed, audit_id: audit.id, erased_at: audit.erasedAt.toISOString() };
    });
  }
}

function personToErase(projectId: string, person: ErasedPerson, recordIds: string[]): PersonToErase {
  return {
    projectId,
    email: person.email === null ? null : normalizeEmail(person.email),
    userIds: person.userId === null ? [] : [person.userId],
    recordIds,
  };
}

function countsOf(contributed: Record<string, number>): Record<ContributedErasureKind, number> {
  return Object.fromEntries(CONTRIBUTED_ERASURE_KINDS.map((kind) => [kind, contributed[kind] ?? 0])) as Record<
    ContributedErasureKind,
    number
  >;
}
