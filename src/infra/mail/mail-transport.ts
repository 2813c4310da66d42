import { Logger } from '@nestjs/common';
import { createTransport } from 'nodemailer';
import type { AppConfig } from '../../config/app-config';

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
      await transporter.sendMail({ ...mail, html: mail.html ?? undefined });
    },
    close: () => transporter.close(),
  };
}

function logTransport(): MailTransport {
  const logger = new Logger('MailOutbox');
  return {
    kind: 'log',
    async send(mail) {
      // Without SMTP the message is kept in mail_messages; the log line says where to find it.
      logger.log(`Email "${mail.subject}" (${mail.headers['X-Mail-Id']}) kept in the mail outbox; set SMTP_URL to deliver it`);
    },
    close: () => undefined,
  };
}

export function createMailTransport(config: AppConfig): MailTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl) : logTransport();
}
