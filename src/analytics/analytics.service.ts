import { Injectable } from '@nestjs/common';
import { ContactsService } from '../contacts/contacts.service';
import { ContactDto, toContactDto } from '../contacts/dto/contact.dto';
import { idempotently } from '../idempotency/idempotent-call';
import { Database } from '../infra/database/database.service';
import type { ProjectRef } from '../projects/project-ref';
import { IdentifyDto } from './dto/identify.dto';

/**
 * Attribution analytics. Identify links a product user id to an email: the contact becomes (or
 * stays) a `user`, and details merge into it. Later, outcomes such as "paid after reading" match
 * people through this link.
 */
@Injectable()
export class AnalyticsService {
  constructor(
    private readonly db: Database,
    private readonly contacts: ContactsService,
  ) {}

  async identify(project: ProjectRef, input: IdentifyDto): Promise<ContactDto> {
    return this.db.transaction((em) =>
      idempotently(em, input, async () => {
        const contact = await this.contacts.upsertContact(em, project.id, {
          email: input.email,
          userId: input.user_id,
          stage: 'user',
          details: input.details,
        });
        return toContactDto(contact);
      }),
    );
  }
}
