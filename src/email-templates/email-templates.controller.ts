import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../common/http/api-docs';
import { PathParam, oneOfKind } from '../common/http/path-param.pipe';
import { Auth } from '../common/http/route-policy';
import type { ProjectRef } from '../projects/project-ref';
import { EMAIL_TEMPLATE_NAMES } from './email-template-catalog';
import {
  EmailPreviewDto,
  EmailTemplateDto,
  EmailTemplateSummaryDto,
  PreviewEmailTemplateDto,
  PutEmailTemplateDto,
} from './dto/email-template.dto';
import { EmailTemplatesService } from './email-templates.service';

const PROJECT_HEADER = { name: 'X-Service-Project', required: true, description: 'The id of one of your projects.' };
const EMAIL_TEMPLATE_NAME = {
  ...oneOfKind(EMAIL_TEMPLATE_NAMES, 'No email template has this name.'),
  remediation: `Use one of: ${EMAIL_TEMPLATE_NAMES.join(', ')}.`,
};

/** The texts of the emails the service sends to the project's people. */
@ApiTags('Dashboard: email templates')
@Controller('v1/dashboard/email-templates')
export class EmailTemplatesController {
  constructor(private readonly templates: EmailTemplatesService) {}

  @Get()
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER)
  @ApiOperation({ summary: 'Every email template with its placeholders, and whether the project has its own text.' })
  @ApiEnvelope(EmailTemplateSummaryDto, { isArray: true })
  listEmailTemplates(@CurrentProject() project: ProjectRef): Promise<EmailTemplateSummaryDto[]> {
    return this.templates.listTemplates(project);
  }

  @Get(':name')
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER)
  @ApiOperation({ summary: 'One template: the subject and body sent now, and the defaults.' })
  @ApiEnvelope(EmailTemplateDto)
  @ApiErrors('NOT_FOUND')
  getEmailTemplate(@CurrentProject() project: ProjectRef, @PathParam('name', EMAIL_TEMPLATE_NAME) name: string): Promise<EmailTemplateDto> {
    return this.templates.getTemplate(project, name);
  }

  @Put(':name')
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER)
  @ApiOperation({ summary: "Saves the project's own subject and body; emails written from now on use them." })
  @ApiEnvelope(EmailTemplateDto)
  @ApiErrors('NOT_FOUND', 'VALIDATION_ERROR', 'EMAIL_TEMPLATE_INVALID')
  putEmailTemplate(
    @CurrentProject() project: ProjectRef,
    @PathParam('name', EMAIL_TEMPLATE_NAME) name: string,
    @Body() body: PutEmailTemplateDto,
  ): Promise<EmailTemplateDto> {
    return this.templates.putTemplate(project, name, body);
  }

  @Delete(':name')
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER)
  @ApiOperation({ summary: 'Resets the template to the default text; answers the template as it is now.' })
  @ApiEnvelope(EmailTemplateDto)
  @ApiErrors('NOT_FOUND')
  resetEmailTemplate(
    @CurrentProject() project: ProjectRef,
    @PathParam('name', EMAIL_TEMPLATE_NAME) name: string,
  ): Promise<EmailTemplateDto> {
    return this.templates.resetTemplate(project, name);
  }

  @Post(':name/preview')
  @HttpCode(200)
  @Auth('dashboard')
  @ApiHeader(PROJECT_HEADER)
  @ApiOperation({
    summary: 'Renders a subject and body (default: those sent now) with sample values, as the email would be sent. Stores nothing.',
  })
  @ApiEnvelope(EmailPreviewDto)
  @ApiErrors('NOT_FOUND', 'VALIDATION_ERROR', 'EMAIL_TEMPLATE_INVALID')
  previewEmailTemplate(
    @CurrentProject() project: ProjectRef,
    @PathParam('name', EMAIL_TEMPLATE_NAME) name: string,
    @Body() body: PreviewEmailTemplateDto,
  ): Promise<EmailPreviewDto> {
    return this.templates.previewTemplate(project, name, body);
  }
}
