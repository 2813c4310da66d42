import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { oneClickUnsubscribe } from '../common/email-links/link-tokens';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { EmailTemplateText } from '../email-templates/email-template-catalog';
import { EmailTemplatesService } from '../email-templates/email-templates.service';
import { MailService } from '../infra/mail/mail.service';
import type { ProjectRef } from '../projects/project-ref';
import { ConfirmationTokens, confirmUrl, issueUnsubscribeToken, unsubscribeUrl } from './email-tokens';
import { WaitlistSignupEntity } from './entities/waitlist-signup.entity';
import { referralLink } from './referral';
import { confirmationEmail, inviteEmail } from './waitlist-emails';
import { insertEmailTokens } from './waitlist.queries';

type MailProject = Pick<ProjectRef, 'id' | 'name' | 'slug'>;

/**
 * Writes the waitlist's emails into the mail outbox, in the caller's transaction. Every email gets
 * fresh link tokens (stored hashed); older links keep working.
 */
@Injectable()
export class WaitlistMailer {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mail: MailService,
    private readonly templates: EmailTemplatesService,
  ) {}

  /**
   * The double opt-in email. The caller has stored `tokens.rows` (a new signup stores them in the
   * statement that inserts it) and records `lastConfirmationSentAt`.
   */
  async queueConfirmation(
    em: EntityManager,
    project: MailProject,
    signup: WaitlistSignupEntity,
    tokens: ConfirmationTokens,
    // Read beforehand by a caller that holds a lock meanwhile (a new signup holds the position counter).
    preread?: EmailTemplateText | null,
  ): Promise<void> {
    const base = this.config.publicBaseUrl;
    const template = preread !== undefined ? preread : await this.confirmationTemplate(em, project.id);
    const email = confirmationEmail(
      {
        projectName: project.name,
        position: signup.position,
        confirmUrl: confirmUrl(base, tokens.confirm),
        unsubscribeUrl: unsubscribeUrl(base, tokens.unsubscribe),
        referralLink: referralLink(base, project.slug, signup.referralCode),
      },
      template,
    );
    const headers = oneClickUnsubscribe(unsubscribeUrl(base, tokens.unsubscribe));
    await this.mail.queueMail(em, { projectId: project.id, kind: 'waitlist.confirmation', to: signup.email, headers, ...email });
  }

  /** The project's confirmation text, or null for the default. */
  confirmationTemplate(em: EntityManager, projectId: string): Promise<EmailTemplateText | null> {
    return this.templates.templateFor(em, projectId, 'waitlist_confirmation');
  }

  /** One invite email per person, each with its own unsubscribe token (all stored in one statement). */
  async queueInvites(em: EntityManager, project: MailProject, signups: WaitlistSignupEntity[], now: Date): Promise<void> {
    const tokens = signups.map((signup) => issueUnsubscribeToken(signup, now));
    await insertEmailTokens(
      em,
      tokens.map(({ row }) => row),
    );
    const template = await this.templates.templateFor(em, project.id, 'waitlist_invite');
    for (const [index, signup] of signups.entries()) {
      const link = unsubscribeUrl(this.config.publicBaseUrl, tokens[index].token);
      const email = inviteEmail({ projectName: project.name, unsubscribeUrl: link }, template);
      await this.mail.queueMail(em, {
        projectId: project.id,
        kind: 'waitlist.invite',
        to: signup.email,
        headers: oneClickUnsubscribe(link),
        ...email,
      });
    }
  }
}
