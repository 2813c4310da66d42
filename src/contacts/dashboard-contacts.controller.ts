import { Controller, Delete, Get } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Caller } from '../auth/caller';
import { CurrentCaller, CurrentProject } from '../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { PathId } from '../common/http/path-param.pipe';
import { Auth } from '../common/http/route-policy';
import type { ProjectRef } from '../projects/project-ref';
import { ERASE_SUMMARY } from './contacts.controller';
import { ContactsService } from './contacts.service';
import { ContactDto } from './dto/contact.dto';
import { ErasureDto } from './erasure/dto/erasure.dto';
import { erasureActorOf } from './erasure/erasure-actor';
import { ErasureService } from './erasure/erasure.service';

const PROJECT_HEADER_DOC = { name: 'X-Service-Project', required: true, description: 'The id of one of your projects.' };

/** Contacts from the dashboard: the same answers as the secret-key routes, for the project in X-Service-Project. */
@ApiTags('Dashboard')
@ApiHeader(PROJECT_HEADER_DOC)
@Controller('v1/dashboard/contacts')
export class DashboardContactsController {
  constructor(
    private readonly contacts: ContactsService,
    private readonly erasure: ErasureService,
  ) {}

  @Get(':id')
  @Auth('dashboard')
  @ApiOperation({ summary: 'One contact of the project.' })
  @ApiEnvelope(ContactDto)
  @ApiErrors('CONTACT_NOT_FOUND')
  getDashboardContact(
    @CurrentProject() project: ProjectRef,
    @PathId('id', 'ct', { notFound: 'CONTACT_NOT_FOUND' }) id: string,
  ): Promise<ContactDto> {
    return this.contacts.getContact(project, id);
  }

  @Delete(':id')
  @Auth('dashboard')
  @ApiOperation({ summary: ERASE_SUMMARY })
  @ApiEnvelope(ErasureDto)
  @ApiErrors('CONTACT_NOT_FOUND')
  eraseDashboardContact(
    @CurrentProject() project: ProjectRef,
    @CurrentCaller() caller: Caller,
    @PathId('id', 'ct', { notFound: 'CONTACT_NOT_FOUND' }) id: string,
  ): Promise<ErasureDto> {
    return this.erasure.eraseContact(project, id, erasureActorOf(caller));
  }
}
