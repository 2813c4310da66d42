import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { oneClickUnsubscribe } from '../../common/email-links/link-tokens';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { EmailTemplatesService } from '../../email-templates/email-templates.service';
import { MailService } from '../../infra/mail/mail.service';
import { confirmationEmail, emailBody, entryEmail } from './subscriber-emails';
import { issueSubscriberLinks, subscriberConfirmUrl, subscriberPreferencesUrl, subscriberUnsubscribeUrl } from './subscriber-tokens';
import { MailingRecipient, insertSubscriberTokens } from './subscribers.queries';

const CONFIRMATION_MAIL_KIND = 'changelog.subscriber_confirmation';
const ENTRY_MAIL_KIND = 'changelog.entry';

/** What an entry email says about its entry (already checked: published, public). */
interface MailedEntry {
  projectId: string;
  projectName: string;
  title: string;
  version: string | null;
  bodyMarkdown: string;
  publicUrl: string;
}

/**
 * Writes the subscriber emails into the mail outbox, in the caller's transaction, with fresh
 * link tokens (stored hashed, in one statement per call) and RFC 8058 one-click unsubscribe headers.
 */
@Injectable()
export class SubscriberMailer {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mail: MailService,
    private readonly templates: EmailTemplatesService,
  ) {}

  /** The double opt-in email of a subscriber who signed up from a browser. */
  async queueConfirmation(
    em: EntityManager,
    project: { id: string; name: string },
    subscriber: MailingRecipient & { projectId: string },
    now: Date,
  ): Promise<void> {
    const base = this.config.publicBaseUrl;
    const links = issueSubscriberLinks(subscriber, now, true);
    await insertSubscriberTokens(em, links.rows);
    const unsubscribeUrl = subscriberUnsubscribeUrl(base, links.unsubscribe);
    const template = await this.templates.templateFor(em, project.id, 'changelog_subscriber_confirmation');
    const email = confirmationEmail(
      {
        projectName: project.name,
        confirmUrl: subscriberConfirmUrl(base, links.confirm ?? ''),
        unsubscribeUrl,
        preferencesUrl: subscriberPreferencesUrl(base, links.labels),
      },
      template,
    );
    await this.mail.queueMail(em, {
      projectId: project.id,
      kind: CONFIRMATION_MAIL_KIND,
      to: subscriber.email,
      headers: oneClickUnsubscribe(unsubscribeUrl),
      ...email,
    });
  }

  /** One entry email per recipient; every email has its own unsubscribe and topics links. */
  async queueEntryEmails(em: EntityManager, entry: MailedEntry, recipients: readonly MailingRecipient[], now: Date): Promise<void> {
    const base = this.config.publicBaseUrl;
    const links = recipients.map((recipient) => issueSubscriberLinks({ id: recipient.id, projectId: entry.projectId }, now, false));
    await insertSubscriberTokens(
      em,
      links.flatMap((link) => link.rows),
    );
    const body = emailBody(entry.bodyMarkdown);
    const template = await this.templates.templateFor(em, entry.projectId, 'changelog_entry');
    for (const [index, recipient] of recipients.entries()) {
      const unsubscribeUrl = subscriberUnsubscribeUrl(base, links[index].unsubscribe);
      const email = entryEmail(
        {
          projectName: entry.projectName,
          title: entry.title,
          version: entry.version,
          body,
          publicUrl: entry.publicUrl,
          unsubscribeUrl,
          preferencesUrl: subscriberPreferencesUrl(base, links[index].labels),
        },
        template,
      );
      await this.mail.queueMail(em, {
        projectId: entry.projectId,
        kind: ENTRY_MAIL_KIND,
        to: recipient.email,
        headers: oneClickUnsubscribe(unsubscribeUrl),
        ...email,
      });
    }
  }
}
