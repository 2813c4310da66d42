import { Logger } from '@nestjs/common';
import { createTransport } from 'nodemailer';
import type { AppConfig } from '../../config/app-config';
import { PermanentFailure } from '../queue/due-rows.service';
import { linksInMail } from './mail-links';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  headers: Record<string, string>;
}

/** The mail port: SMTP through nodemailer when SMTP_URL is set, else the log (rows stay in the outbox). */
export interface MailTransport {
  readonly kind: 'smtp' | 'log';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

function smtpTransport(url: string): MailTransport {
  const transporter = createTransport(url);
  return {
    kind: 'smtp',
    async send(mail) {
      try {
        await transporter.sendMail({ ...mail, html: mail.html ?? undefined });
      } catch (error) {
        // RFC 5321: a 5yz reply is permanent (no such mailbox, sender refused); 4yz and network errors may pass.
        const code = (error as { responseCode?: number }).responseCode;
        if (code !== undefined && code >= 500 && code < 600) throw new PermanentFailure((error as Error).message);
        throw error;
      }
    },
    close: () => transporter.close(),
  };
}

/**
 * In development each kept email gets one readable line with its recipient, subject and links, so
 * a newcomer can follow a confirmation link from the terminal (or GET /dev/mail while DEV_MAIL is on). Production logs
 * no recipient and no link: links carry one-use tokens, and recipients are personal data.
 */
export function describeKeptMail(mail: OutgoingMail, config: Pick<AppConfig, 'production' | 'devMail' | 'publicBaseUrl'>): string {
  const id = mail.headers['X-Mail-Id'];
  if (config.production) return `Email "${mail.subject}" (${id}) kept in the mail outbox; set SMTP_URL to deliver it`;
  const links = linksInMail(mail.text, mail.html);
  const shown = links.length > 0 ? `links: ${links.join(' ')}` : 'no links';
  const viewer = config.devMail ? `; all mail: ${config.publicBaseUrl}/dev/mail` : '';
  return `Email to ${mail.to}: "${mail.subject}"; ${shown} (not sent without SMTP_URL${viewer})`;
}

function logTransport(config: AppConfig): MailTransport {
  const logger = new Logger('MailOutbox');
  return {
    kind: 'log',
    async send(mail) {
      // Without SMTP the message is kept in mail_messages; the log line says where to find it.
      logger.log(describeKeptMail(mail, config));
    },
    close: () => undefined,
  };
}

export function createMailTransport(config: AppConfig): MailTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl) : logTransport(config);
}
