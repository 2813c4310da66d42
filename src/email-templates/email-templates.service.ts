import { readTemplateText } from './email-templates.queries';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { markdownToText, renderMarkdown } from '../common/markdown/markdown-render';
import { Database } from '../infra/database/database.service';
import type { ProjectRef } from '../projects/project-ref';
import {
  EMAIL_TEMPLATES,
  EMAIL_TEMPLATE_NAMES,
  type EmailTemplateName,
  type EmailTemplateText,
  isEmailTemplateName,
} from './email-template-catalog';
import { type EmailValues, renderEmailTemplate, templateProblem } from './email-template-engine';
import {
  EmailPreviewDto,
  EmailTemplateDto,
  EmailTemplateSummaryDto,
  PreviewEmailTemplateDto,
  PutEmailTemplateDto,
  toEmailTemplateDto,
  toEmailTemplateSummaryDto,
} from './dto/email-template.dto';
import { EmailTemplateEntity } from './entities/email-template.entity';

/**
 * Email templates (issue 14 point 6; spec: EMAIL_TEMPLATE_INVALID): a project's own subject and
 * body for each email the service sends its people, or the default.
 *
 * Choices the spec leaves open:
 * - Four templates (email-template-catalog.ts): waitlist confirmation and invite, changelog
 *   subscriber confirmation and new entry. Plain text with Mustache placeholders; the HTML part is
 *   made from it (email-template-engine.ts), so an owner cannot put markup or scripts into mail.
 * - Limits: subject 1 to 200 characters on one line, body 1 to 20000. Unknown placeholders,
 *   required ones missing (the confirm link of a confirmation, the unsubscribe link everywhere)
 *   or used only inside a section, unescaped forms, partials and delimiter changes answer 422
 *   EMAIL_TEMPLATE_INVALID with `param` subject or body (the subject is checked first).
 * - DELETE resets to the default; GET then shows the default again. On every plan.
 * - A saved template applies to emails written after the save; emails already in the outbox keep
 *   the text they were rendered with.
 */
@Injectable()
export class EmailTemplatesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async listTemplates(project: ProjectRef): Promise<EmailTemplateSummaryDto[]> {
    const rows = await this.db.manager.find(EmailTemplateEntity, { where: { projectId: project.id } });
    const byName = new Map(rows.map((row) => [row.name, row]));
    return EMAIL_TEMPLATE_NAMES.map((name) => toEmailTemplateSummaryDto(name, byName.get(name) ?? null));
  }

  async getTemplate(project: ProjectRef, name: string): Promise<EmailTemplateDto> {
    const known = this.knownName(name);
    return toEmailTemplateDto(known, await this.findRow(this.db.manager, project.id, known));
  }

  async putTemplate(project: ProjectRef, name: string, input: PutEmailTemplateDto): Promise<EmailTemplateDto> {
    const known = this.knownName(name);
    this.assertValid(known, input);
    const now = this.clock.now();
    return this.db.transaction(async (em) => {
      const existing = await this.findRow(em, project.id, known);
      const row = Object.assign(new EmailTemplateEntity(), {
        projectId: project.id,
        name: known,
        subject: input.subject,
        body: input.body,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      });
      await em.upsert(EmailTemplateEntity, row, ['projectId', 'name']);
      return toEmailTemplateDto(known, row);
    });
  }

  async resetTemplate(project: ProjectRef, name: string): Promise<EmailTemplateDto> {
    const known = this.knownName(name);
    await this.db.manager.delete(EmailTemplateEntity, { projectId: project.id, name: known });
    return toEmailTemplateDto(known, null);
  }

  /** Renders the given text (or the one sent now) with sample values; nothing is stored. */
  async previewTemplate(project: ProjectRef, name: string, input: PreviewEmailTemplateDto): Promise<EmailPreviewDto> {
    const known = this.knownName(name);
    const current = toEmailTemplateDto(known, await this.findRow(this.db.manager, project.id, known));
    const template = { subject: input.subject ?? current.subject, body: input.body ?? current.body };
    this.assertValid(known, template);
    return renderEmailTemplate(template, sampleValues(known, project.name));
  }

  /** The project's own text for an email, or null for the default; read in the sender's transaction. */
  templateFor(em: EntityManager, projectId: string, name: EmailTemplateName): Promise<EmailTemplateText | null> {
    return readTemplateText(em, projectId, name);
  }

  private findRow(em: EntityManager, projectId: string, name: EmailTemplateName): Promise<EmailTemplateEntity | null> {
    return em.findOne(EmailTemplateEntity, { where: { projectId, name } });
  }

  private knownName(name: string): EmailTemplateName {
    if (isEmailTemplateName(name)) return name;
    throw new ApiError('NOT_FOUND', `No email template "${name.slice(0, 60)}".`, {
      param: 'name',
      remediation: `Use one of: ${EMAIL_TEMPLATE_NAMES.join(', ')}.`,
    });
  }

  private assertValid(name: EmailTemplateName, template: EmailTemplateText): void {
    const problem = templateProblem(EMAIL_TEMPLATES[name], template);
    if (problem) throw new ApiError('EMAIL_TEMPLATE_INVALID', problem.message, { param: problem.param });
  }
}

function sampleValues(name: EmailTemplateName, projectName: string): EmailValues {
  const values: EmailValues = {};
  for (const placeholder of EMAIL_TEMPLATES[name].placeholders) {
    values[placeholder.name] = placeholder.html
      ? { text: markdownToText(placeholder.sample), html: renderMarkdown(placeholder.sample) }
      : placeholder.sample;
  }
  values.project_name = projectName;
  return values;
}
