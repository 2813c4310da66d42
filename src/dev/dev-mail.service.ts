import { Injectable } from '@nestjs/common';
import { Database } from '../infra/database/database.service';
import type { MailMessageEntity } from '../infra/mail/entities/mail-message.entity';
import { linksInMail } from '../infra/mail/mail-links';
import { MailService } from '../infra/mail/mail.service';

/** How many messages GET /dev/mail shows: enough for a session of trying things out. */
const DEV_MAIL_LIMIT = 50;

/** One email as GET /dev/mail shows it. */
export interface DevMailDto {
  id: string;
  kind: string;
  to: string;
  subject: string;
  /** pending, sent, logged (kept here: no SMTP_URL) or failed. */
  status: string;
  created_at: string;
  sent_at: string | null;
  /** The http(s) links of the body. Empty once an SMTP server accepted it (bodies are removed then). */
  links: string[];
}

function toDevMailDto(row: MailMessageEntity): DevMailDto {
  return {
    id: row.id,
    kind: row.kind,
    to: row.recipient,
    subject: row.subject,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    sent_at: row.sentAt?.toISOString() ?? null,
    links: linksInMail(row.textBody, row.htmlBody),
  };
}

/**
 * The development mail viewer: the last emails of every project, newest first, read from the mail
 * outbox. Development only (DevModule is not registered with NODE_ENV=production).
 */
@Injectable()
export class DevMailService {
  constructor(
    private readonly db: Database,
    private readonly mail: MailService,
  ) {}

  async listMail(): Promise<DevMailDto[]> {
    const rows = await this.mail.latestMail(this.db.manager, DEV_MAIL_LIMIT);
    return rows.map(toDevMailDto);
  }
}
