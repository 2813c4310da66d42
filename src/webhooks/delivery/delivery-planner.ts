import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { newId } from '../../common/ids/ids';
import { DueRows } from '../../infra/queue/due-rows';
import { OutboxService, type RecordedEvent } from '../../events/outbox.service';
import { PLANS } from '../../projects/plans';
import { entryNotifiesChat, insertPlannedDeliveries } from './deliveries.queries';
import { WebhookSender } from './webhook-sender';

/** Ids handed to the planning statement: one per endpoint the largest plan allows. */
const MAX_ENDPOINTS = Math.max(...Object.values(PLANS).map((plan) => plan.limits.webhookEndpoints));

/**
 * Plans deliveries (issue 11 item 4): an outbox listener that, inside the transaction of every
 * recorded event, writes one pending delivery per enabled endpoint subscribed to its type, in one
 * INSERT … SELECT, and wakes workers only after commit. The API call never waits on a receiver;
 * an event that rolls back plans nothing. An endpoint created or re-enabled later does not get
 * older events (as with Stripe); switched-off endpoints get nothing while off.
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
    this.outbox.addListener((em, event) => this.plan(em, event));
  }

  async plan(em: EntityManager, event: RecordedEvent): Promise<void> {
    const jsonOnly = event.type === 'changelog.entry.published' && !(await entryNotifiesChat(em, event.data.entry_id));
    const ids = Array.from({ length: MAX_ENDPOINTS }, () => newId('whd'));
    const planned = await insertPlannedDeliveries(em, event, ids, jsonOnly);
    for (const row of planned) this.dueRows.enqueueAfterCommit(em, this.sender.definition, row);
  }
}
