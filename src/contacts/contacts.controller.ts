import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/http/route-policy';
import { CurrentProject } from '../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { Paged } from '../common/http/reply';
import type { ProjectRef } from '../projects/project-ref';
import { ContactsService } from './contacts.service';
import { ContactDto } from './dto/contact.dto';
import { ListContactsQueryDto } from './dto/list-contacts-query.dto';

@ApiTags('Contacts')
@Controller('v1/contacts')
export class ContactsController {
  constructor(private readonly contacts: ContactsService) {}

  @Get()
  @Auth('secret')
  @ApiOperation({ summary: 'List contacts, newest first, filtered by stage, consent, detail or paying.' })
  @ApiEnvelope(ContactDto, { paged: true })
  @ApiErrors('VALIDATION_ERROR')
  listContacts(@CurrentProject() project: ProjectRef, @Query() query: ListContactsQueryDto): Promise<Paged<ContactDto>> {
    return this.contacts.listContacts(project, query);
  }
}
