import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { EMAIL_TEMPLATES, EMAIL_TEMPLATE_NAMES, type EmailTemplateName } from '../email-template-catalog';
import type { EmailTemplateEntity } from '../entities/email-template.entity';

export class EmailPlaceholderDto {
  @ApiProperty({ example: 'confirm_url', description: 'Write it as {{confirm_url}}.' })
  name: string;

  @ApiProperty({ example: 'The link that confirms the address.' })
  description: string;

  @ApiProperty({ example: true, description: 'Must appear in the body, outside any {{#section}}.' })
  required: boolean;

  @ApiProperty({ example: 'https://launch.example/v1/waitlist/confirm?token=sample', description: 'The value previews use.' })
  sample: string;
}

export class EmailTemplateSummaryDto {
  @ApiProperty({ enum: EMAIL_TEMPLATE_NAMES, example: 'waitlist_confirmation' })
  name: EmailTemplateName;

  @ApiProperty({ example: 'Double opt-in email sent when someone joins the waitlist.' })
  description: string;

  @ApiProperty({ type: [EmailPlaceholderDto], description: 'The placeholders this template may use; any other is refused.' })
  placeholders: EmailPlaceholderDto[];

  @ApiProperty({ example: false, description: 'Whether the project has its own text (false: the default is sent).' })
  customized: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-20T10:00:00.000Z' })
  updated_at: string | null;
}

export class EmailTemplateDto extends EmailTemplateSummaryDto {
  @ApiProperty({ example: 'Confirm your spot on the {{project_name}} waitlist', description: 'The subject that is sent now.' })
  subject: string;

  @ApiProperty({
    example: 'Confirm your email address: {{confirm_url}}\n\nUnsubscribe: {{unsubscribe_url}}',
    description: 'The body that is sent now.',
  })
  body: string;

  @ApiProperty({ example: 'Confirm your spot on the {{project_name}} waitlist' })
  default_subject: string;

  @ApiProperty({ example: 'You joined the {{project_name}} waitlist at position {{position}}.\n…' })
  default_body: string;
}

export class PutEmailTemplateDto {
  @ApiProperty({
    example: 'Almost there, confirm your spot at {{project_name}}',
    description: 'One line, 1 to 200 characters; placeholders allowed.',
  })
  @IsString()
  subject!: string;

  @ApiProperty({
    example: 'Hi! Confirm your email: {{confirm_url}}\n\nNot you? {{unsubscribe_url}}',
    description:
      'Plain text, 1 to 20000 characters, with the required placeholders. Blank lines make paragraphs in the HTML part; addresses become links.',
  })
  @IsString()
  body!: string;
}

export class PreviewEmailTemplateDto {
  @ApiPropertyOptional({
    example: 'Almost there, confirm your spot at {{project_name}}',
    description: 'Default: the subject that is sent now.',
  })
  @IsOptional()
  @IsString()
  subject?: string;

  @ApiPropertyOptional({
    example: 'Hi! Confirm your email: {{confirm_url}}\n\nNot you? {{unsubscribe_url}}',
    description: 'Default: the body that is sent now.',
  })
  @IsOptional()
  @IsString()
  body?: string;
}

export class EmailPreviewDto {
  @ApiProperty({ example: 'Almost there, confirm your spot at Acme' })
  subject: string;

  @ApiProperty({ example: 'Hi! Confirm your email: https://launch.example/v1/waitlist/confirm?token=sample' })
  text: string;

  @ApiProperty({ example: '<!doctype html>…', description: 'The HTML part, as sent.' })
  html: string;
}

export function toEmailTemplateSummaryDto(name: EmailTemplateName, row: EmailTemplateEntity | null): EmailTemplateSummaryDto {
  const spec = EMAIL_TEMPLATES[name];
  return {
    name,
    description: spec.description,
    placeholders: spec.placeholders.map(({ name: placeholder, description, required, sample }) => ({
      name: placeholder,
      description,
      required,
      sample,
    })),
    customized: row !== null,
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
}

export function toEmailTemplateDto(name: EmailTemplateName, row: EmailTemplateEntity | null): EmailTemplateDto {
  const defaults = EMAIL_TEMPLATES[name].defaults;
  return {
    ...toEmailTemplateSummaryDto(name, row),
    subject: row?.subject ?? defaults.subject,
    body: row?.body ?? defaults.body,
    default_subject: defaults.subject,
    default_body: defaults.body,
  };
}
