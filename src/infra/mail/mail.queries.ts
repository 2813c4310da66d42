import type { EntityManager } from 'typeorm';
import type { PersonToErase } from '../erasure/person-match';
import type { MailMessageEntity } from './entities/mail-message.entity';

/**
 * One outbox row. Plain SQL: TypeORM's `em.insert` spends a few hundred µs of CPU building the
 * same statement (and reads defaults back), and a signup writes one email.
 */
export async function insertMail(em: EntityManager, mail: MailMessageEntity): Promise<void> {
  await em.query(
    `INSERT INTO mail_messages (id, project_id, kind, recipient, subject, text_body, html_body, headers, status, attempts,
                                next_attempt_at, locked_until, last_error, sent_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      mail.id,
      mail.projectId,
      mail.kind,
      mail.recipient,
      mail.subject,
      mail.textBody,
      mail.htmlBody,
      JSON.stringify(mail.headers),
      mail.status,
      mail.attempts,
      mail.nextAttemptAt,
      mail.lockedUntil,
      mail.lastError,
      mail.sentAt,
      mail.createdAt,
    ],
  );
}

/**
 * Erasure: deletes the project's mail to the person's address, whatever its state. Sent and
 * logged mail goes from the history; failed mail takes its body (links, personal data) with it;
 * pending mail is cancelled, since an erased person is not written to again. A send already in
 * flight when this commits still reaches the SMTP server; its worker then finds no row to update.
 */
export async function deleteMailToPerson(em: EntityManager, person: PersonToErase): Promise<number> {
  if (person.email === null) return 0;
  const [, deleted] = (await em.query('DELETE FROM mail_messages WHERE project_id = $1 AND lower(recipient) = $2', [
    person.projectId,
    person.email,
  ])) as [unknown, number];
  return deleted;
}
