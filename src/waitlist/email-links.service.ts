import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import type { RawReply } from '../common/http/reply';
import { ContactsService } from '../contacts/contacts.service';
import { Database } from '../infra/database/database.service';
import { ProjectsService } from '../projects/projects.service';
import { hashLinkToken } from '../common/email-links/link-tokens';
import { invalidLinkPage } from '../common/email-links/invalid-link-page';
import { EmailTokenPurpose } from './email-tokens';
import { WaitlistEmailTokenEntity } from './entities/waitlist-email-token.entity';
import { WaitlistSignupEntity } from './entities/waitlist-signup.entity';
import { confirmPromptPage, confirmedPage, unsubscribePromptPage, unsubscribedPage } from './pages/waitlist-pages';

/**
 * The public links in waitlist emails. Mail scanners and link previewers open links (GET) before
 * the person does, so a GET only shows a page with a button, and only the POST that button (or a
 * mail client's RFC 8058 one-click) sends changes anything. Each token works for its own purpose
 * only; both actions are idempotent, so posting twice changes nothing more.
 */
@Injectable()
export class EmailLinksService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly contacts: ContactsService,
    private readonly projects: ProjectsService,
  ) {}

  /** GET of the confirmation link: reads, never writes. */
  async showConfirmation(token: string): Promise<RawReply> {
    const signup = await this.findByToken(this.db.manager, token, 'confirm', false);
    if (!signup) return invalidLinkPage();
    const name = await this.waitlistName(signup.projectId);
    return signup.confirmedAt ? confirmedPage(name, signup.position) : confirmPromptPage(name, token);
  }

  /** GET of an unsubscribe link: reads, never writes. */
  async showUnsubscribe(token: string): Promise<RawReply> {
    const signup = await this.findByToken(this.db.manager, token, 'unsubscribe', false);
    if (!signup) return invalidLinkPage();
    const name = await this.waitlistName(signup.projectId);
    return signup.status === 'unsubscribed' ? unsubscribedPage(name) : unsubscribePromptPage(name, token);
  }

  async confirmSignup(token: string): Promise<RawReply> {
    const signup = await this.db.transaction(async (em) => {
      const row = await this.findByToken(em, token, 'confirm', true);
      if (row && !row.confirmedAt) {
        row.confirmedAt = this.clock.now();
        await em.update(WaitlistSignupEntity, { id: row.id }, { confirmedAt: row.confirmedAt });
      }
      return row;
    });
    if (!signup) return invalidLinkPage();
    return confirmedPage(await this.waitlistName(signup.projectId), signup.position);
  }

  async unsubscribe(token: string): Promise<RawReply> {
    const signup = await this.db.transaction(async (em) => {
      const row = await this.findByToken(em, token, 'unsubscribe', true);
      if (row && row.status !== 'unsubscribed') {
        row.status = 'unsubscribed';
        row.unsubscribedAt = this.clock.now();
        await em.update(WaitlistSignupEntity, { id: row.id }, { status: row.status, unsubscribedAt: row.unsubscribedAt });
        await this.contacts.upsertContact(em, row.projectId, { email: row.email, consents: { waitlist_emails: 'withdrawn' } });
      }
      return row;
    });
    if (!signup) return invalidLinkPage();
    return unsubscribedPage(await this.waitlistName(signup.projectId));
  }

  private async findByToken(
    em: EntityManager,
    token: string,
    purpose: EmailTokenPurpose,
    forUpdate: boolean,
  ): Promise<WaitlistSignupEntity | null> {
    const link = await em.findOneBy(WaitlistEmailTokenEntity, { tokenHash: hashLinkToken(token), purpose });
    if (!link) return null;
    return em.findOne(WaitlistSignupEntity, {
      where: { id: link.signupId },
      ...(forUpdate ? { lock: { mode: 'pessimistic_write' } } : {}),
    });
  }

  // Read after the transaction: on the embedded database a second connection inside it would deadlock.
  private async waitlistName(projectId: string): Promise<string> {
    const project = await this.projects.findById(projectId);
    return project ? `the ${project.name} waitlist` : 'the waitlist';
  }
}
