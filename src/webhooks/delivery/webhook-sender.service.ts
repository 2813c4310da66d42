import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { newId } from '../../common/ids/ids';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../../infra/database/database.service';
import { DueRows, type DueRowsDefinition, PermanentFailure, defineDueRows } from '../../infra/queue/due-rows.service';
import type { DueRowJob } from '../../infra/queue/job-catalog';
import { OutboxService } from '../../events/outbox.service';
import type { WebhookEnvelope } from '../chat/chat-message';
import { WebhookDeliveryEntity } from '../entities/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../entities/webhook-endpoint.entity';
import { type EndpointForDelivery, countFailure, recordAttempt, resetFailureStreak } from './deliveries.queries';
import { HttpSender, type HttpOutcome } from './http-sender';
import { WebhookSecretBox, openEndpoint } from '../endpoints/endpoint-secrets';
import { SIGNATURE_HEADER, signatureHeader } from './signature';
import { envelopeOf, payloadFor } from './webhook-payload';

const USER_AGENT = 'LaunchService-Webhooks/1.0';
/** Room after the HTTP timeout before another worker may take a row over (see DueRowsOptions.leaseMs). */
const LEASE_MARGIN_MS = 30_000;

/**
 * Sends webhook deliveries (spec: Events → Signature, Delivery; issue 11 items 4, 5):
 *
 * - A delivery is a due row: the job `webhooks.deliver` (and the sweeper, for lost jobs and a
 *   worker killed mid-attempt) claims it with a lease longer than the HTTP timeout, so two workers
 *   never send the same attempt, and a crashed attempt is sent again once its lease ends.
 * - The body is the event's envelope (or the chat message) serialised once per attempt and signed
 *   over those exact bytes; every retry carries the same event id and delivery id.
 * - Any 2xx within WEBHOOK_TIMEOUT_MS succeeds and resets the endpoint's failure streak. Anything
 *   else (3xx, never followed; 4xx; 5xx; timeout; connection or address refusal) records the
 *   answer on the row, counts one failed attempt on the endpoint, and retries on
 *   WEBHOOK_RETRY_DELAYS. Each failed ATTEMPT counts toward the 20 that switch the endpoint off: a
 *   receiver that is down is found out in minutes, not after 20 events × 9 hours of retries.
 * - A delivery whose endpoint is switched off when its turn comes ends `failed` ("endpoint
 *   disabled"), using no further attempts: nothing piles up behind a dead receiver. After fixing the
 *   receiver and re-enabling the endpoint, `POST /v1/webhooks/{id}/recover {since}` sends them again.
 * - An endpoint whose URL or secret ENCRYPTION_KEY cannot open (SealedValueUnreadable: a changed key,
 *   a damaged row) fails the attempt before anything is sent, with that reason on the row: retried
 *   on the schedule like any failure (so a restored key delivers it), never counted toward the
 *   endpoint's streak (the receiver is not at fault), and the worker goes on with other rows.
 * - Every request sent is logged as an attempt (webhook_delivery_attempts: time, status or error,
 *   duration, answer excerpt) by the statement that writes the delivery's last answer
 *   (recordAttempt). Attempts that send nothing (endpoint switched off, event gone, unreadable
 *   URL or secret) are not logged; last_error says why. A worker that dies between the answer and
 *   that statement leaves no attempt row: the next claim's attempt number skips one (the lost
 *   attempt still counted toward the schedule, since claiming counts it), and the receiver may see
 *   the event twice, which the event id lets it drop. One that dies after it but before the
 *   delivery is marked delivered leaves a logged 2xx and a second, also logged, request after the
 *   lease ends: the log shows every request the receiver could have seen, once each.
 */
@Injectable()
export class WebhookSender implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookSender.name);
  readonly definition: DueRowsDefinition<WebhookDeliveryEntity>;
  private readonly http: HttpSender;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly dueRows: DueRows,
    private readonly box: WebhookSecretBox,
    private readonly outbox: OutboxService,
  ) {
    this.definition = defineDueRows<WebhookDeliveryEntity>({
      name: 'webhook deliveries',
      entity: WebhookDeliveryEntity,
      job: 'webhooks.deliver',
      doneStatus: 'delivered',
      retryDelaysMs: config.webhooks.retryDelaysMs,
      leaseMs: config.webhooks.timeoutMs + LEASE_MARGIN_MS,
    });
    this.http = new HttpSender({
      timeoutMs: config.webhooks.timeoutMs,
      allowInsecureUrls: config.webhooks.allowInsecureUrls,
      userAgent: USER_AGENT,
    });
  }

  onModuleInit(): void {
    this.dueRows.registerSweep(this.definition);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.http.close();
  }

  deliver({ id }: DueRowJob): Promise<void> {
    return this.dueRows.process(this.definition, id, (row) => this.attempt(row));
  }

  /** One attempt of a claimed delivery: throws to fail it (the schedule decides what follows). */
  private async attempt(row: WebhookDeliveryEntity): Promise<Partial<WebhookDeliveryEntity>> {
    const em = this.db.manager;
    const [endpoint, event] = await Promise.all([
      em.findOne(WebhookEndpointEntity, { where: { id: row.endpointId, projectId: row.projectId } }),
      this.outbox.findEvent(em, row.projectId, row.eventId),
    ]);
    if (!endpoint) throw new PermanentFailure('The endpoint no longer exists');
    if (endpoint.status !== 'enabled') {
      throw new PermanentFailure('The endpoint is disabled; re-enable it, then recover to send this delivery again');
    }
    if (!event) throw new PermanentFailure('The event no longer exists');
    const at = this.clock.now();
    const outcome = await this.post(endpoint, envelopeOf(event), row.id);
    await recordAttempt(em, row, newId('wha'), { ...outcome, at });
    if (outcome.error === null) {
      if (endpoint.consecutiveFailures > 0) await resetFailureStreak(em, endpoint.id);
      // Also written here, unguarded by the attempt count: a late success still shows its answer.
      return {
        responseStatus: outcome.status,
        responseExcerpt: outcome.excerpt,
        durationMs: outcome.durationMs,
        lastAttemptAt: at,
        deliveredAt: this.clock.now(),
      };
    }
    const streak = await countFailure(em, endpoint.id, outcome.error, this.clock.now());
    if (streak?.disabledNow)
      this.logger.warn(`webhook endpoint ${endpoint.id} switched off after ${streak.consecutiveFailures} failed deliveries`);
    throw new Error(outcome.error);
  }

  /** Signs and POSTs one envelope to one endpoint; never throws for the receiver's behaviour. */
  async post(
    endpoint: EndpointForDelivery,
    envelope: WebhookEnvelope,
    deliveryId: string,
  ): Promise<HttpOutcome & { payload: Record<string, unknown> }> {
    const now = this.clock.now();
    const { url, secrets } = openEndpoint(this.box, endpoint, now);
    const payload = payloadFor(endpoint.format, envelope);
    const body = JSON.stringify(payload);
    const outcome = await this.http.post(url, body, {
      'service-event-id': envelope.id,
      'service-event-type': envelope.type,
      'service-delivery-id': deliveryId,
      [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(secrets, now.getTime() / 1000, body),
    });
    return { ...outcome, payload };
  }

  /** A fresh id for an attempt that has no row (the test event). */
  static transientDeliveryId(): string {
    return newId('whd');
  }
}
