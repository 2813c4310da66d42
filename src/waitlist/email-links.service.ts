import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ContactsService } from '../contacts/contacts.service';
import { Database } from '../infra/database/database';
import { ProjectsService } from '../projects/projects.service';
import { EmailTokenPurpose, hashEmailToken } from './email-tokens';
import { WaitlistEmailTokenEntity } from './entities/waitlist-email-token.entity';
import { WaitlistSignupEntity } from './entities/waitlist-signup.entity';
import { linkPage } from './waitlist-emails';

/** What a link answers: a small HTML page and its status. */
export interface LinkPage {
  status: 200 | 404;
  html: string;
}

const INVALID_LINK: LinkPage = {
  status: 404,
  html: linkPage('This link is not valid', 'The link may be incomplete. Open it again from the email, or copy the whole address.'),
};

/**
 * The public links in waitlist emails. Each token works for its own purpose only; both actions are
 * idempotent, so opening a link twice (or a mail scanner opening it first) changes nothing more.
 */
@Injectable()
export class EmailLinksService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly contacts: ContactsService,
    private readonly projects: ProjectsService,
  ) {}

  async confirmSignup(token: string): Promise<LinkPage> {
    const signup = await this.db.transaction(async (em) => {
      const row = await this.lockByToken(em, token, 'confirm');
      if (row && !row.confirmedAt) {
        row.confirmedAt = this.clock.now();
        await em.update(WaitlistSignupEntity, { id: row.id }, { confirmedAt: row.confirmedAt });
      }
      return row;
    });
    if (!signup) return INVALID_LINK;
    const name = await this.waitlistName(signup.projectId);
    return {
      status: 200,
      html: linkPage('Email confirmed', `Your spot on ${name} is confirmed. You are number ${signup.position} in line.`),
    };
  }

  async unsubscribe(token: string): Promise<LinkPage> {
    const signup = await this.db.transaction(async (em) => {
      const row = await this.lockByToken(em, token, 'unsubscribe');
      if (row && row.status !== 'unsubscribed') {
        row.status = 'unsubscribed';
        row.unsubscribedAt = this.clock.now();
        await em.update(WaitlistSignupEntity, { id: row.id }, { status: row.status, unsubscribedAt: row.unsubscribedAt });
        await this.contacts.upsertContact(em, row.projectId, { email: row.email, consents: { waitlist_emails: 'withdrawn' } });
      }
      return row;
    });
    if (!signup) return INVALID_LINK;
    const name = await this.waitlistName(signup.projectId);
    return {
      status: 200,
      html: linkPage('Unsubscribed', `You have left ${name} and will get no more emails about it.`),
    };
  }

  private async lockByToken(em: EntityManager, token: string, purpose: EmailTokenPurpose): Promise<WaitlistSignupEntity | null> {
    const link = await em.findOneBy(WaitlistEmailTokenEntity, { tokenHash: hashEmailToken(token), purpose });
    if (!link) return null;
    return em.findOne(WaitlistSignupEntity, { where: { id: link.signupId }, lock: { mode: 'pessimistic_write' } });
  }

  // Read after the transaction: on the embedded database a second connection inside it would deadlock.
  private async waitlistName(projectId: string): Promise<string> {
    const project = await this.projects.findById(projectId);
    return project ? `the ${project.name} waitlist` : 'the waitlist';
  }
}
