import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { newId } from '../../common/ids/ids';
import { DueRows } from '../../infra/queue/due-rows.service';
import { OutboxService, type RecordedEvent } from '../../events/outbox.service';
import { PLANS } from '../../projects/plans';
import type { ProjectRef } from '../../projects/project-ref';
import { insertPlannedDeliveries } from './deliveries.queries';
import { WebhookSender } from './webhook-sender.service';
import { entryNotifiesChat } from '../../changelog/entries/published-entries.service';

/** Ids handed to the planning statement: one per endpoint the largest plan allows. */
const MAX_ENDPOINTS = Math.max(...Object.values(PLANS).map((plan) => plan.limits.webhookEndpoints));

/**
 * Plans deliveries (issue 11 item 4): an outbox listener that, inside the transaction of every
 * recorded event, writes one pending delivery per enabled endpoint subscribed to its type, in one
 * INSERT … SELECT, and wakes workers only after commit. The API call never waits on a receiver;
 * an event that rolls back plans nothing. An endpoint created or re-enabled later does not get
 * older events (as with Stripe); switched-off endpoints get nothing while off.
 *
 * Most projects have no endpoint, so a request whose project copy (the API key cache's) says it
 * has no enabled endpoint skips the statement (issue 32 item 3). Creating, deleting, enabling and
 * disabling an endpoint announce the project's change in their transaction (EndpointsService),
 * which drops that copy in every process before the change is answered. The rule that gives: an
 * endpoint gets every event recorded by a request sent after its creation (or re-enabling) was
 * answered; an event whose request raced with it may or may not be delivered, as on a path without
 * the skip. Workers, jobs, the CLI, public pages and dashboard routes hold no such copy and always
 * run the statement. An endpoint the delivery worker switches off (AUTO_DISABLE_AFTER failures)
 * announces nothing: the copies that still say "has endpoints" only run the statement for nothing
 * until they expire (seconds).
 *
 * `changelog.entry.published` with `notify_chat` false skips chat endpoints (spec: Delivery 3);
 * JSON endpoints still get it.
 */
@Injectable()
export class DeliveryPlanner implements OnModuleInit {
  constructor(
    private readonly outbox: OutboxService,
    private readonly dueRows: DueRows,
    private readonly sender: WebhookSender,
  ) {}

  onModuleInit(): void {
    this.outbox.addListener((em, event, project) => this.plan(em, event, project));
  }

  async plan(em: EntityManager, event: RecordedEvent, project: ProjectRef | null = null): Promise<void> {
    if (project?.id === event.projectId && project.hasWebhookEndpoints === false) return;
    const jsonOnly = event.type === 'changelog.entry.published' && !(await entryNotifiesChat(em, event.data.entry_id));
    const ids = Array.from({ length: MAX_ENDPOINTS }, () => newId('whd'));
    const planned = await insertPlannedDeliveries(em, event, ids, jsonOnly);
    for (const row of planned) this.dueRows.enqueueAfterCommit(em, this.sender.definition, row);
  }
}
