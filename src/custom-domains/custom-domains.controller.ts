import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { PathId } from '../common/http/path-param.pipe';
import { Auth } from '../common/http/route-policy';
import type { ProjectRef } from '../projects/project-ref';
import { RequiresFeature } from '../projects/requires-feature';
import { CustomDomainsService } from './custom-domains.service';
import { CreateCustomDomainDto } from './dto/create-custom-domain.dto';
import { CustomDomainDto, DeletedCustomDomainDto } from './dto/custom-domain.dto';

const PROJECT_HEADER = { name: 'X-Service-Project', required: true, description: 'The id of one of your projects.' };

/** Hostnames that serve the project's hosted changelog page, feeds and waitlist page. */
@ApiTags('Dashboard: custom domains')
@Controller('v1/dashboard/domains')
export class CustomDomainsController {
  constructor(private readonly domains: CustomDomainsService) {}

  @Post()
  @Auth('dashboard')
  @RequiresFeature('custom_domain')
  @ApiHeader(PROJECT_HEADER)
  @ApiOperation({
    summary:
      'Claims a hostname, pending until verified within 7 days; the answer lists the TXT record that proves control and the CNAME that routes it. Another pending claim does not block it; a hostname another project verified does.',
  })
  @ApiEnvelope(CustomDomainDto, { status: 201 })
  @ApiErrors('VALIDATION_ERROR', 'CUSTOM_DOMAIN_NOT_CONFIGURED', 'HOSTNAME_ALREADY_REGISTERED', 'CUSTOM_DOMAIN_LIMIT_REACHED')
  createDomain(@CurrentProject() project: ProjectRef, @Body() body: CreateCustomDomainDto): Promise<CustomDomainDto> {
    return this.domains.createDomain(project, body);
  }

  @Get()
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER)
  @ApiOperation({ summary: "The project's hostnames, oldest first: verified ones and pending claims that have not lapsed." })
  @ApiEnvelope(CustomDomainDto, { isArray: true })
  @ApiErrors('CUSTOM_DOMAIN_NOT_CONFIGURED')
  listDomains(@CurrentProject() project: ProjectRef): Promise<CustomDomainDto[]> {
    return this.domains.listDomains(project);
  }

  @Post(':id/verify')
  @HttpCode(200)
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER)
  @ApiOperation({
    summary:
      "Looks up the TXT record with the claim's token now. Verified: the hostname serves the project's hosted pages at once. Not found: status stays pending and last_check_error says what was looked for. A lapsed claim is NOT_FOUND; a hostname another project verified first is HOSTNAME_ALREADY_REGISTERED.",
  })
  @ApiEnvelope(CustomDomainDto)
  @ApiErrors('NOT_FOUND', 'CUSTOM_DOMAIN_NOT_CONFIGURED', 'HOSTNAME_ALREADY_REGISTERED')
  verifyDomain(@CurrentProject() project: ProjectRef, @PathId('id', 'dom') id: string): Promise<CustomDomainDto> {
    return this.domains.verifyDomain(project, id);
  }

  @Delete(':id')
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER)
  @ApiOperation({ summary: 'Removes a hostname; it stops serving the changelog (other API processes within 30 seconds).' })
  @ApiEnvelope(DeletedCustomDomainDto)
  @ApiErrors('NOT_FOUND', 'CUSTOM_DOMAIN_NOT_CONFIGURED')
  deleteDomain(@CurrentProject() project: ProjectRef, @PathId('id', 'dom') id: string): Promise<DeletedCustomDomainDto> {
    return this.domains.deleteDomain(project, id);
  }
}
