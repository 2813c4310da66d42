import { ContactDto } from '../../contacts/dto/contact.dto';
import { ListContactsQueryDto } from '../../contacts/dto/list-contacts-query.dto';
import { ContactsService } from '../../contacts/contacts.service';
import { READ, type ToolDefinition, listOutput } from '../tool-kit';
import { dtoJsonSchema } from '../tool-schemas';
import type { ServiceResolver } from './service-resolver';

/** The contacts group: the people the project knows, from every surface. */
export function contactTools(services: ServiceResolver): ToolDefinition[] {
  const contacts = services.get(ContactsService);
  return [
    {
      name: 'list_contacts',
      group: 'contacts',
      title: 'List contacts',
      description:
        'The people this project knows (waitlist, subscribers, feedback, identify calls) with stage, consents and details; filter by stage, consent, detail (key=value) or paying. Personal data: quote it only to the owner. Returns {items, next_cursor}. All plans.',
      annotations: READ,
      input: { dto: ListContactsQueryDto, from: 'query' },
      rest: { method: 'get', path: '/v1/contacts' },
      output: listOutput(dtoJsonSchema(ContactDto, { closed: false })),
      run: (caller, { input }) => contacts.listContacts(caller.project, input as ListContactsQueryDto),
    },
  ];
}
