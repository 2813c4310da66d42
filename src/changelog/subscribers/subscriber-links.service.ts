import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import type { RawReply } from '../../common/http/reply';
import { OutboxService } from '../../events/outbox.service';
import { Database } from '../../infra/database/database.service';
import { ProjectsService } from '../../projects/projects.service';
import { ChangelogLabelEntity } from '../entities/changelog-label.entity';
import { ChangelogSubscriberEntity } from '../entities/changelog-subscriber.entity';
import { resolveLabelSlugs } from '../labels/label-slugs';
import { labelsWithSlugs } from '../labels/labels.queries';
import { subscriberCreatedData } from './subscriber-event';
import {
  confirmPromptPage,
  confirmedPage,
  preferencesPage,
  subscriberLinkInvalidPage,
  unsubscribePromptPage,
  unsubscribedPage,
} from './subscriber-pages';
import { findSubscriberByToken, replaceSubscriberLabels, subscriberLabelSlugs } from './subscribers.queries';

/**
 * The links in changelog emails, opened by people in a browser: they answer HTML pages. Mail
 * scanners and link previewers open links (GET) before the person does, so a GET only shows a
 * page with a button, and only the POST of that button (or a mail client's RFC 8058 one-click
 * POST to the List-Unsubscribe link) changes anything. Each token works for its own purpose only.
 * Confirming twice changes nothing more; unsubscribing deletes the subscriber with its tokens, so
 * its links then answer the "not valid" page (which says that nothing more is needed).
 */
@Injectable()
export class SubscriberLinksService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly outbox: OutboxService,
    private readonly projects: ProjectsService,
  ) {}

  /** GET of the confirmation link: reads, never writes. */
  async showConfirmation(token: string): Promise<RawReply> {
    const subscriber = await findSubscriberByToken(this.db.manager, token, 'confirm', false);
    if (!subscriber) return subscriberLinkInvalidPage();
    const name = await this.projectName(subscriber.projectId);
    return subscriber.confirmed ? confirmedPage(name) : confirmPromptPage(name, token);
  }

  /** Confirms, and emits `changelog.subscriber.created` the one time the subscriber becomes confirmed. */
  async confirmSubscriber(token: string): Promise<RawReply> {
    const subscriber = await this.db.transaction(async (em) => {
      const row = await findSubscriberByToken(em, token, 'confirm');
      if (row && !row.confirmed) {
        row.confirmed = true;
        row.confirmedAt = this.clock.now();
        await em.update(ChangelogSubscriberEntity, { id: row.id }, { confirmed: true, confirmedAt: row.confirmedAt });
        const labels = await subscriberLabelSlugs(em, row.id);
        await this.outbox.record(em, row.projectId, 'changelog.subscriber.created', subscriberCreatedData(row, labels));
      }
      return row;
    });
    if (!subscriber) return subscriberLinkInvalidPage();
    return confirmedPage(await this.projectName(subscriber.projectId));
  }

  /** GET of an unsubscribe link: reads, never writes. */
  async showUnsubscribe(token: string): Promise<RawReply> {
    const subscriber = await findSubscriberByToken(this.db.manager, token, 'unsubscribe', false);
    if (!subscriber) return subscriberLinkInvalidPage();
    return unsubscribePromptPage(await this.projectName(subscriber.projectId), token);
  }

  /** Deletes the subscriber; its labels and tokens go with it (foreign-key cascade). */
  async unsubscribe(token: string): Promise<RawReply> {
    const subscriber = await this.db.transaction(async (em) => {
      const row = await findSubscriberByToken(em, token, 'unsubscribe');
      if (row) await em.delete(ChangelogSubscriberEntity, { id: row.id, projectId: row.projectId });
      return row;
    });
    if (!subscriber) return subscriberLinkInvalidPage();
    return unsubscribedPage(await this.projectName(subscriber.projectId));
  }

  /** GET of the "Choose your topics" link: the project's labels as checkboxes. */
  async showPreferences(token: string): Promise<RawReply> {
    const subscriber = await findSubscriberByToken(this.db.manager, token, 'labels', false);
    if (!subscriber) return subscriberLinkInvalidPage();
    return this.preferences(subscriber, token, false);
  }

  /**
   * The topics form: the checked labels replace what the person follows; none checked means
   * everything. Slugs that no longer exist (a label deleted while the page was open) are skipped.
   */
  async savePreferences(token: string, checked: unknown): Promise<RawReply> {
    const subscriber = await this.db.transaction(async (em) => {
      const row = await findSubscriberByToken(em, token, 'labels');
      if (!row) return null;
      const slugs = (Array.isArray(checked) ? checked : [checked]).filter((value): value is string => typeof value === 'string');
      const known = await labelsWithSlugs(em, row.projectId, slugs);
      const labelIds = await resolveLabelSlugs(
        em,
        row.projectId,
        known.map((label) => label.slug),
      );
      await replaceSubscriberLabels(em, row.id, labelIds);
      return row;
    });
    if (!subscriber) return subscriberLinkInvalidPage();
    return this.preferences(subscriber, token, true);
  }

  // Read after any transaction: on the embedded database a second connection inside it would deadlock.
  private async preferences(subscriber: ChangelogSubscriberEntity, token: string, saved: boolean): Promise<RawReply> {
    const labels = await this.db.manager.find(ChangelogLabelEntity, { where: { projectId: subscriber.projectId }, order: { name: 'ASC' } });
    const followed = new Set(await subscriberLabelSlugs(this.db.manager, subscriber.id));
    const topics = labels.map((label) => ({ slug: label.slug, name: label.name, followed: followed.has(label.slug) }));
    return preferencesPage({ projectName: await this.projectName(subscriber.projectId), token, topics, saved });
  }

  private async projectName(projectId: string): Promise<string> {
    const project = await this.projects.findById(projectId);
    return project?.name ?? 'this';
  }
}
