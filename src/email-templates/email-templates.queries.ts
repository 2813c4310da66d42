import type { EntityManager } from 'typeorm';
import type { EmailTemplateName, EmailTemplateText } from './email-template-catalog';

/**
 * The project's own text for an email, or null for the default: one indexed read (the primary key),
 * plain SQL because every signup runs it.
 */
export async function readTemplateText(em: EntityManager, projectId: string, name: EmailTemplateName): Promise<EmailTemplateText | null> {
  const rows: EmailTemplateText[] = await em.query('SELECT subject, body FROM email_templates WHERE project_id = $1 AND name = $2', [
    projectId,
    name,
  ]);
  return rows[0] ? { subject: rows[0].subject, body: rows[0].body } : null;
}
