import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MailService } from '../infra/mail/mail.service';
import type { ProjectRef } from '../projects/project-ref';
import { EmailTokenPurpose, confirmUrl, issueEmailToken, unsubscribeUrl } from './email-tokens';
import { WaitlistEmailTokenEntity } from './entities/waitlist-email-token.entity';
import { WaitlistSignupEntity } from './entities/waitlist-signup.entity';
import { referralLink } from './referral';
import { confirmationEmail, inviteEmail } from './waitlist-emails';

interface TokenRequest {
  signup: WaitlistSignupEntity;
  purpose: EmailTokenPurpose;
}

export type MailProject = Pick<ProjectRef, 'id' | 'name' | 'slug'>;

/**
 * Mail clients show their own unsubscribe button for these headers, and large mailbox providers
 * expect them; the POST (RFC 8058 one-click) goes to the same link.
 */
export function oneClickUnsubscribe(link: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/**
 * Writes the waitlist's emails into the mail outbox, in the caller's transaction. Every email gets
 * fresh link tokens (stored hashed); older links keep working.
 */
@Injectable()
export class WaitlistMailer {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mail: MailService,
  ) {}

  /** The double opt-in email; the caller records `lastConfirmationSentAt`. */
  async queueConfirmation(em: EntityManager, project: MailProject, signup: WaitlistSignupEntity, now: Date): Promise<void> {
    const [confirm, unsubscribe] = await this.issueTokens(
      em,
      [
        { signup, purpose: 'confirm' },
        { signup, purpose: 'unsubscribe' },
      ],
      now,
    );
    const email = confirmationEmail({
      projectName: project.name,
      position: signup.position,
      confirmUrl: confirmUrl(this.config.publicBaseUrl, confirm),
      unsubscribeUrl: unsubscribeUrl(this.config.publicBaseUrl, unsubscribe),
      referralLink: referralLink(this.config.publicBaseUrl, project.slug, signup.referralCode),
    });
    const headers = oneClickUnsubscribe(unsubscribeUrl(this.config.publicBaseUrl, unsubscribe));
    await this.mail.queueMail(em, { projectId: project.id, kind: 'waitlist.confirmation', to: signup.email, headers, ...email });
  }

  async queueInvites(em: EntityManager, project: MailProject, signups: WaitlistSignupEntity[], now: Date): Promise<void> {
    const tokens = await this.issueTokens(
      em,
      signups.map((signup) => ({ signup, purpose: 'unsubscribe' as const })),
      now,
    );
    for (const [index, signup] of signups.entries()) {
      const link = unsubscribeUrl(this.config.publicBaseUrl, tokens[index]);
      const email = inviteEmail({ projectName: project.name, unsubscribeUrl: link });
      await this.mail.queueMail(em, {
        projectId: project.id,
        kind: 'waitlist.invite',
        to: signup.email,
        headers: oneClickUnsubscribe(link),
        ...email,
      });
    }
  }

  /** One fresh token per request, inserted in one statement; answers the tokens in request order. */
  private async issueTokens(em: EntityManager, requests: TokenRequest[], now: Date): Promise<string[]> {
    const issued = requests.map(() => issueEmailToken());
    await em.insert(
      WaitlistEmailTokenEntity,
      requests.map(({ signup, purpose }, index) => ({
        tokenHash: issued[index].hash,
        projectId: signup.projectId,
        signupId: signup.id,
        purpose,
        createdAt: now,
      })),
    );
    return issued.map(({ token }) => token);
  }
}
