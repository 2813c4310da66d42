import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { ApiError } from '../../common/errors/api-error';
import { isId, newId } from '../../common/ids/ids';
import { Paged } from '../../common/http/reply';
import { listPage, newestFirst } from '../../common/http/list-page';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../../infra/database/database.service';
import { DueRows } from '../../infra/queue/due-rows.service';
import { OutboxService } from '../../events/outbox.service';
import type { ProjectRef } from '../../projects/project-ref';
import { WebhookDeliveryEntity } from '../entities/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../entities/webhook-endpoint.entity';
import { DELIVERY_LOG_RETENTION_MS } from './delivery-retention.service';
import { type RecoverDeliveriesDto, type ListDeliveriesQueryDto } from './dto/delivery-inputs.dto';
import { type RecoverResultDto, type WebhookDeliveryDto, type WebhookTestResultDto, toDeliveryDto } from './dto/delivery.dto';
import { attemptsOf, requeueDelivery, requeueFailedSince } from './deliveries.queries';
import { WebhookSender } from './webhook-sender.service';
import { TEST_EVENT_TYPE, envelopeOf, payloadFor } from './webhook-payload';

/**
 * The delivery side of the webhook routes (issue 11 item 3): the log, a manual retry, recovery
 * after a broken receiver is fixed, and the test event.
 *
 * - Retry and recover redeliver on the SAME row (same delivery id, same event id, so receivers
 *   that drop duplicates by event id keep working) with a fresh retry schedule: attempts start
 *   again from 0. A row whose attempt is in flight (leased) is left to it.
 * - Retry sends at once and answers the delivery as it stands after that attempt; recover only
 *   requeues (it may be thousands of rows) and answers how many.
 * - Both refuse a switched-off endpoint (re-enable it first): its deliveries would only fail again.
 * - The test event (`webhook.test`) is never stored nor retried and does not count toward the
 *   endpoint's failure streak; it works on a switched-off endpoint, to check a fixed receiver
 *   before re-enabling it.
 * - Every delivery in the log (list, get, retry's answer) carries `attempt_log`: each request sent,
 *   oldest first, with its time, status or error, duration and answer excerpt, as Stripe's
 *   dashboard shows attempts under an event and Svix lists a message's attempts. Embedded rather
 *   than a sub-resource because a delivery has few (ATTEMPTS_KEPT at most, one query per page) and
 *   the log is read to debug a receiver, where the attempts are the point; the MCP tool
 *   `list_webhook_deliveries` answers them the same way. The name `attempts` was taken by the
 *   count of tries of the current schedule, which keeps its meaning; the log survives retry and
 *   recover (which reset that count), so a receiver that failed for hours can be debugged after
 *   it recovered. Attempts go with their delivery (foreign key: retention, endpoint deletion).
 */
@Injectable()
export class DeliveriesService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly dueRows: DueRows,
    private readonly sender: WebhookSender,
    private readonly outbox: OutboxService,
  ) {}

  async list(project: ProjectRef, endpointId: string, query: ListDeliveriesQueryDto): Promise<Paged<WebhookDeliveryDto>> {
    const endpoint = await this.endpoint(project, endpointId);
    const since = new Date(this.clock.now().getTime() - DELIVERY_LOG_RETENTION_MS);
    const qb = this.db.manager
      .createQueryBuilder(WebhookDeliveryEntity, 'd')
      .where('d.project_id = :projectId AND d.endpoint_id = :endpointId', { projectId: project.id, endpointId: endpoint.id })
      .andWhere('d.created_at >= :since', { since });
    if (query.status) qb.andWhere('d.status = :status', { status: query.status });
    const page = await listPage(qb, query, newestFirst('whd'), (row) => row);
    return new Paged(await this.toDtos(endpoint, page.items), page.nextCursor);
  }

  async get(project: ProjectRef, endpointId: string, deliveryId: string): Promise<WebhookDeliveryDto> {
    const endpoint = await this.endpoint(project, endpointId);
    const since = new Date(this.clock.now().getTime() - DELIVERY_LOG_RETENTION_MS);
    const row = await this.delivery(project, endpoint, deliveryId);
    // Past the log's 30 days a row may wait for the retention run: it is out of the log already.
    if (row.createdAt < since) throw this.noDelivery(deliveryId);
    const [dto] = await this.toDtos(endpoint, [row]);
    return dto;
  }

  async retry(project: ProjectRef, endpointId: string, deliveryId: string): Promise<WebhookDeliveryDto> {
    const endpoint = await this.enabledEndpoint(project, endpointId);
    const found = await this.delivery(project, endpoint, deliveryId);
    if (await requeueDelivery(this.db.manager, found.id, this.clock.now())) await this.sender.deliver({ id: found.id });
    const row = await this.db.manager.findOneByOrFail(WebhookDeliveryEntity, { id: found.id });
    const [dto] = await this.toDtos(endpoint, [row]);
    return dto;
  }

  async recover(project: ProjectRef, endpointId: string, body: RecoverDeliveriesDto): Promise<RecoverResultDto> {
    const endpoint = await this.enabledEndpoint(project, endpointId);
    const requeued = await this.db.transaction(async (em) => {
      const rows = await requeueFailedSince(em, project.id, endpoint.id, new Date(body.since), this.clock.now());
      for (const row of rows) this.dueRows.enqueueAfterCommit(em, this.sender.definition, row);
      return rows.length;
    });
    return { requeued };
  }

  async test(project: ProjectRef, endpointId: string): Promise<WebhookTestResultDto> {
    const endpoint = await this.endpoint(project, endpointId);
    const envelope = envelopeOf({
      id: newId('evt'),
      type: TEST_EVENT_TYPE,
      createdAt: this.clock.now(),
      projectId: project.id,
      data: { endpoint_id: endpoint.id, message: 'A test event: your endpoint is reachable and can verify our signature.' },
    });
    const outcome = await this.sender.post(endpoint, envelope, WebhookSender.transientDeliveryId());
    return {
      delivered: outcome.error === null,
      event_id: envelope.id,
      event_type: envelope.type,
      response_status: outcome.status,
      response_excerpt: outcome.excerpt,
      duration_ms: outcome.durationMs,
      error: outcome.error,
      payload: outcome.payload,
    };
  }

  /** Deliveries of the endpoint still waiting for a try (what deleting it would drop). */
  async pendingCount(project: ProjectRef, endpointId: string): Promise<number> {
    const endpoint = await this.endpoint(project, endpointId);
    return this.db.manager.count(WebhookDeliveryEntity, { where: { projectId: project.id, endpointId: endpoint.id, status: 'pending' } });
  }

  private async endpoint(project: ProjectRef, endpointId: string): Promise<WebhookEndpointEntity> {
    const row = isId('we', endpointId)
      ? await this.db.manager.findOne(WebhookEndpointEntity, { where: { id: endpointId, projectId: project.id } })
      : null;
    if (!row) throw new ApiError('NOT_FOUND', `No webhook endpoint ${endpointId.slice(0, 64)} in this project.`, { param: 'id' });
    return row;
  }

  private async enabledEndpoint(project: ProjectRef, endpointId: string): Promise<WebhookEndpointEntity> {
    const endpoint = await this.endpoint(project, endpointId);
    if (endpoint.status !== 'enabled') {
      throw new ApiError('VALIDATION_ERROR', `Webhook endpoint ${endpoint.id} is disabled: ${endpoint.disabledReason ?? 'switched off'}.`, {
        param: 'id',
        remediation:
          'Fix the receiver (POST /v1/webhooks/{id}/test checks it), re-enable it with PATCH /v1/webhooks/{id} {"status":"enabled"}, then try again.',
      });
    }
    return endpoint;
  }

  private async delivery(project: ProjectRef, endpoint: WebhookEndpointEntity, deliveryId: string): Promise<WebhookDeliveryEntity> {
    const row = isId('whd', deliveryId)
      ? await this.db.manager.findOne(WebhookDeliveryEntity, { where: { id: deliveryId, projectId: project.id, endpointId: endpoint.id } })
      : null;
    if (!row) throw this.noDelivery(deliveryId);
    return row;
  }

  private noDelivery(deliveryId: string): ApiError {
    return new ApiError('NOT_FOUND', `No delivery ${deliveryId.slice(0, 64)} for this endpoint.`, { param: 'delivery_id' });
  }

  /** The log entries of some deliveries: their payloads and attempts, one query each. */
  private async toDtos(endpoint: WebhookEndpointEntity, rows: WebhookDeliveryEntity[]): Promise<WebhookDeliveryDto[]> {
    const [payloads, attempts] = await Promise.all([
      this.payloads(endpoint, rows),
      attemptsOf(
        this.db.manager,
        endpoint.projectId,
        rows.map((row) => row.id),
      ),
    ]);
    return rows.map((row) => toDeliveryDto(row, payloads.get(row.eventId) ?? null, attempts.get(row.id) ?? []));
  }

  /** The body each delivery sent (or will send), rebuilt from its event: one query per page. */
  private async payloads(endpoint: WebhookEndpointEntity, rows: WebhookDeliveryEntity[]): Promise<Map<string, Record<string, unknown>>> {
    const ids = [...new Set(rows.map((row) => row.eventId))];
    if (ids.length === 0) return new Map();
    const events = await this.outbox.findEvents(this.db.manager, endpoint.projectId, ids);
    return new Map(events.map((event) => [event.id, payloadFor(endpoint.format, envelopeOf(event))]));
  }
}
