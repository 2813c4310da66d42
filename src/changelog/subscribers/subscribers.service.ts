import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CallerKind } from '../../auth/caller';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { newestFirst, listPage } from '../../common/http/list-page';
import { Paged } from '../../common/http/reply';
import { newId } from '../../common/ids/ids';
import { OutboxService } from '../../events/outbox.service';
import { idempotently } from '../../idempotency/idempotent-call';
import { Database } from '../../infra/database/database.service';
import { isUniqueViolation } from '../../infra/database/postgres-errors';
import { PlanUsage } from '../../projects/plan-usage.service';
import { planLimit } from '../../projects/plans';
import type { ProjectRef } from '../../projects/project-ref';
import { ChangelogSubscriberEntity } from '../entities/changelog-subscriber.entity';
import { resolveLabelSlugs } from '../labels/label-slugs';
import { CreateSubscriberDto } from './dto/create-subscriber.dto';
import { ListSubscribersQueryDto } from './dto/list-subscribers-query.dto';
import { SubscriberLabelsDto } from './dto/subscriber-labels.dto';
import { SubscriberDto, toSubscriberDto } from './dto/subscriber.dto';
import { subscriberCreatedData } from './subscriber-event';
import { SubscriberMailer } from './subscriber-mailer.service';
import {
  UQ_SUBSCRIBER_EMAIL,
  countSubscribers,
  findSubscriberByToken,
  insertSubscriber,
  lockNewSubscribers,
  replaceSubscriberLabels,
  subscriberLabelSlugs,
  deleteSubscribersOfPerson,
  SUBSCRIBER_FOLLOWS_LABEL,
} from './subscribers.queries';
import { ErasureRegistry } from '../../infra/erasure/erasure-registry.service';

/*
 * Changelog subscribers (spec: Changelog subscriber, its states, the subscriber endpoints).
 *
 * Choices where the spec is silent:
 * - A secret key is the owner's server, which has its own consent from the person (an import, a
 *   signup form of theirs): the subscriber is created confirmed, and `changelog.subscriber.created`
 *   is emitted at once. No confirmation email is sent.
 * - A publishable key is a browser, where anyone can type any address: the subscriber is created
 *   unconfirmed and gets a confirmation email (double opt-in); the event is emitted when the link's
 *   button is pressed and the subscriber becomes confirmed. Unconfirmed subscribers get no entry
 *   emails.
 * - The same email again (case-insensitive), confirmed or still pending, from either key: 409
 *   ALREADY_SUBSCRIBED (param `email`), and nothing is written or sent. A repeat from a browser
 *   does not resend the confirmation email: the form cannot be used to flood someone's inbox.
 * - The plan limit `subscribers` (plans.ts) counts every subscriber, pending ones included (they
 *   hold a row and may confirm at any time); past it 403 PLAN_LIMIT_REACHED. Race-proof: a
 *   per-project advisory lock spans the insert and the count, in the same transaction.
 * - Labels: slugs of the project's labels; none (or an empty list) means every public entry; an
 *   unknown slug is VALIDATION_ERROR (param `labels`). The label routes answer slugs in slug order.
 * - `GET /v1/changelog/subscribers`: newest first, cursor-paginated, confirmed and pending alike
 *   (`confirmed` tells them apart). `label` lists the people who chose that label; those who follow
 *   everything are not listed under each label.
 * - `PUT /v1/changelog/subscribers/by-token/{token}/labels` takes the `labels` token that every
 *   email carries (in its "Choose your topics" link); an unknown token, or a token made for
 *   another link, is 404 NOT_FOUND. Tokens never expire; they go when the person unsubscribes.
 * - Email links (SubscriberLinksService) live under /v1/changelog/subscribers/{confirm,
 *   unsubscribe,preferences}?token=…; unsubscribing deletes the subscriber, its labels and tokens.
 * - Every confirmation email carries an unsubscribe and a "Choose your topics" link too, with
 *   List-Unsubscribe / List-Unsubscribe-Post (RFC 8058) headers, like every entry email.
 * - Emails about entries: see SubscriberMailings (subscriber-mailings.ts).
 */
@Injectable()
export class SubscribersService implements OnModuleInit {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly outbox: OutboxService,
    private readonly mailer: SubscriberMailer,
    private readonly usage: PlanUsage,
    erasure: ErasureRegistry,
  ) {
    erasure.contributeRecords('changelog_subscribers', deleteSubscribersOfPerson);
  }

  onModuleInit(): void {
    this.usage.registerCounter('subscribers', (projectId) => countSubscribers(this.db.manager, projectId));
  }
  async createSubscriber(project: ProjectRef, input: CreateSubscriberDto, caller: CallerKind): Promise<SubscriberDto> {
    try {
      return await this.db.transaction((em) => idempotently(em, input, () => this.insertSubscriber(em, project, input, caller)));
    } catch (error) {
      if (isUniqueViolation(error, UQ_SUBSCRIBER_EMAIL)) {
        throw new ApiError('ALREADY_SUBSCRIBED', 'This email already follows the changelog (confirmed, or waiting for confirmation).', {
          param: 'email',
        });
      }
      throw error;
    }
  }

  async listSubscribers(project: ProjectRef, query: ListSubscribersQueryDto): Promise<Paged<SubscriberDto>> {
    const qb = this.db.manager
      .createQueryBuilder(ChangelogSubscriberEntity, 's')
      .where('s.project_id = :projectId', { projectId: project.id });
    if (query.label !== undefined) {
      const [labelId] = await resolveLabelSlugs(this.db.manager, project.id, [query.label], 'label');
      qb.andWhere(SUBSCRIBER_FOLLOWS_LABEL, { labelId });
    }
    return listPage(qb, query, newestFirst('sub'), toSubscriberDto);
  }

  /** The owner (secret key or dashboard) sets what a subscriber follows. */
  async setSubscriberLabels(project: ProjectRef, subscriberId: string, labels: string[]): Promise<SubscriberLabelsDto> {
    return this.db.transaction(async (em) => {
      const subscriber = await em.findOne(ChangelogSubscriberEntity, {
        where: { id: subscriberId, projectId: project.id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!subscriber) throw new ApiError('NOT_FOUND', 'No changelog subscriber with this id in this project.', { param: 'subscriber_id' });
      return this.replaceLabels(em, subscriber, labels);
    });
  }

  /** The person sets their own topics, with the token of an email link. */
  async setSubscriberLabelsByToken(token: string, labels: string[]): Promise<SubscriberLabelsDto> {
    return this.db.transaction(async (em) => {
      const subscriber = await findSubscriberByToken(em, token, 'labels');
      if (!subscriber) {
        throw new ApiError('NOT_FOUND', 'This link token is unknown, or the subscriber has unsubscribed.', {
          param: 'token',
          remediation: 'Use the token of the "Choose your topics" link of a recent changelog email.',
        });
      }
      return this.replaceLabels(em, subscriber, labels);
    });
  }

  private async replaceLabels(em: EntityManager, subscriber: ChangelogSubscriberEntity, labels: string[]): Promise<SubscriberLabelsDto> {
    const labelIds = await resolveLabelSlugs(em, subscriber.projectId, labels);
    await replaceSubscriberLabels(em, subscriber.id, labelIds);
    return { id: subscriber.id, labels: await subscriberLabelSlugs(em, subscriber.id) };
  }

  private async insertSubscriber(
    em: EntityManager,
    project: ProjectRef,
    input: CreateSubscriberDto,
    caller: CallerKind,
  ): Promise<SubscriberDto> {
    const labelIds = await resolveLabelSlugs(em, project.id, input.labels ?? []);
    const max = planLimit(project.plan, 'subscribers');
    if (max !== null) await lockNewSubscribers(em, project.id);
    const now = this.clock.now();
    // A server (secret key) vouches for the person; a browser (publishable key) must confirm by email.
    const confirmed = caller === 'secret_key';
    const subscriber = Object.assign(new ChangelogSubscriberEntity(), {
      id: newId('sub'),
      projectId: project.id,
      email: input.email,
      confirmed,
      confirmedAt: confirmed ? now : null,
      createdAt: now,
    });
    // The unique index decides duplicates (also between concurrent requests); counting after the
    // insert lets a duplicate answer 409 rather than PLAN_LIMIT_REACHED on a full project.
    await insertSubscriber(em, subscriber);
    if (max !== null && (await countSubscribers(em, project.id)) > max) {
      throw new ApiError('PLAN_LIMIT_REACHED', `The ${project.plan} plan allows ${max} changelog subscribers.`);
    }
    await replaceSubscriberLabels(em, subscriber.id, labelIds);
    if (confirmed) {
      await this.outbox.record(
        em,
        project,
        'changelog.subscriber.created',
        subscriberCreatedData(subscriber, await subscriberLabelSlugs(em, subscriber.id)),
      );
    } else {
      await this.mailer.queueConfirmation(em, project, subscriber, now);
    }
    return toSubscriberDto(subscriber);
  }
}
