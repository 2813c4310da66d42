import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { newId } from '../../common/ids/ids';
import { Database } from '../../infra/database/database';
import type { ProjectRef } from '../../projects/project-ref';
import { contactNotFound } from '../contact-errors';
import { ErasureDto } from './dto/erasure.dto';
import { ContactErasureEntity, ErasureActorKind } from './entities/contact-erasure.entity';
import { erasePerson, lockContact } from './erasure.queries';

/** Who asked for an erasure: an API key or a dashboard account (ids only). */
export interface ErasureActor {
  kind: ErasureActorKind;
  id: string;
}

/**
 * Erasure of one person (issue 14 item 7): `DELETE /v1/contacts/{id}` removes them everywhere the
 * project holds them, found by the contact's email and user id (erasure.queries.ts lists the
 * places), in one transaction with the audit row, which keeps no personal data. A second erasure
 * of the same id is CONTACT_NOT_FOUND: the person is gone. Rows that only count (usage, page
 * views without a visitor) name nobody and stay.
 */
@Injectable()
export class ErasureService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async eraseContact(project: ProjectRef, contactId: string, actor: ErasureActor): Promise<ErasureDto> {
    return this.db.transaction(async (em) => {
      const person = await lockContact(em, project.id, contactId);
      if (!person) throw contactNotFound(contactId);
      const removed = await erasePerson(em, project.id, person);
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
