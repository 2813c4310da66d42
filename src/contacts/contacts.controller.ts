import { Controller, Delete, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PathId } from '../common/http/path-param.pipe';
import { Auth } from '../common/http/route-policy';
import { CurrentCaller, CurrentProject } from '../auth/current.decorators';
import type { Caller } from '../auth/caller';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { Paged } from '../common/http/reply';
import type { ProjectRef } from '../projects/project-ref';
import { ContactsService } from './contacts.service';
import { ContactDto } from './dto/contact.dto';
import { ListContactsQueryDto } from './dto/list-contacts-query.dto';
import { ErasureDto } from './erasure/dto/erasure.dto';
import { erasureActorOf } from './erasure/erasure-actor';
import { ErasureService } from './erasure/erasure.service';

export const ERASE_SUMMARY =
  'Erase the person everywhere this project holds them (contact, waitlist signups, feedback email, changelog subscriber, bell state, mail history, event payloads), in one step; answers what was removed and keeps an audit record without personal data.';

@ApiTags('Contacts')
@Controller('v1/contacts')
export class ContactsController {
  constructor(
    private readonly contacts: ContactsService,
    private readonly erasure: ErasureService,
  ) {}

  @Get()
  @Auth('secret')
  @ApiOperation({ summary: 'List contacts, newest first, filtered by stage, consent, detail or paying.' })
  @ApiEnvelope(ContactDto, { paged: true })
  @ApiErrors('VALIDATION_ERROR')
  listContacts(@CurrentProject() project: ProjectRef, @Query() query: ListContactsQueryDto): Promise<Paged<ContactDto>> {
    return this.contacts.listContacts(project, query);
  }

  @Get(':id')
  @Auth('secret')
  @ApiOperation({ summary: 'One contact.' })
  @ApiEnvelope(ContactDto)
  @ApiErrors('CONTACT_NOT_FOUND')
  getContact(
    @CurrentProject() project: ProjectRef,
    @PathId('id', 'ct', { notFound: 'CONTACT_NOT_FOUND' }) id: string,
  ): Promise<ContactDto> {
    return this.contacts.getContact(project, id);
  }

  @Delete(':id')
  @Auth('secret')
  @ApiOperation({ summary: ERASE_SUMMARY })
  @ApiEnvelope(ErasureDto)
  @ApiErrors('CONTACT_NOT_FOUND')
  eraseContact(
    @CurrentProject() project: ProjectRef,
    @CurrentCaller() caller: Caller,
    @PathId('id', 'ct', { notFound: 'CONTACT_NOT_FOUND' }) id: string,
  ): Promise<ErasureDto> {
    return this.erasure.eraseContact(project, id, erasureActorOf(caller));
  }
}
