import { ApiProperty } from '@nestjs/swagger';
import type { WebhookDeliveryAttemptEntity } from '../../entities/webhook-delivery-attempt.entity';
import type { WebhookDeliveryEntity } from '../../entities/webhook-delivery.entity';
import { ATTEMPTS_KEPT } from '../deliveries.queries';

const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One HTTP request of a delivery: when it was sent and what came back. */
export class WebhookDeliveryAttemptDto {
  @ApiProperty({ example: 'wha_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  id: string;

  @ApiProperty({
    type: 'integer',
    example: 2,
    description: 'Which try of the retry schedule this was (1 is the first); starts again at 1 after a retry or recover.',
  })
  attempt: number;

  @ApiProperty({ type: String, format: 'date-time', description: 'When the request started.' })
  attempted_at: string;

  @ApiProperty({ type: 'integer', nullable: true, example: 500, description: 'The HTTP status; null when no answer came.' })
  response_status: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'No answer within 10000 ms',
    description: 'Why it failed (the status, a timeout, a refused connection or address); null on a 2xx.',
  })
  error: string | null;

  @ApiProperty({ type: 'integer', example: 84, description: 'How long the request took, in milliseconds.' })
  duration_ms: number;

  @ApiProperty({ type: String, nullable: true, maxLength: 500, description: "The first 500 characters of the answer's body." })
  response_excerpt: string | null;
}

function toDeliveryAttemptDto(row: WebhookDeliveryAttemptEntity): WebhookDeliveryAttemptDto {
  return {
    id: row.id,
    attempt: row.attempt,
    attempted_at: row.attemptedAt.toISOString(),
    response_status: row.responseStatus,
    error: row.error,
    duration_ms: row.durationMs,
    response_excerpt: row.responseExcerpt,
  };
}

/** One delivery of one event to one endpoint, as the delivery log shows it. */
export class WebhookDeliveryDto {
  @ApiProperty({ example: 'whd_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', description: 'Also sent as the Service-Delivery-Id header.' })
  id: string;

  @ApiProperty({ example: 'we_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  endpoint_id: string;

  @ApiProperty({
    example: 'evt_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
    description: 'Same on every retry (Service-Event-Id): receivers drop duplicates by it.',
  })
  event_id: string;

  @ApiProperty({ example: 'feedback.created' })
  event_type: string;

  @ApiProperty({
    enum: DELIVERY_STATUSES,
    description: 'pending: to be sent or retried; delivered: a 2xx came back in time; failed: given up.',
  })
  status: (typeof DELIVERY_STATUSES)[number];

  @ApiProperty({
    type: 'integer',
    example: 1,
    description: 'Attempts made since the delivery was planned (or last redelivered by retry or recover).',
  })
  attempts: number;

  @ApiProperty({ type: 'integer', nullable: true, example: 500, description: "The last attempt's HTTP status; null when no answer came." })
  response_status: number | null;

  @ApiProperty({ type: String, nullable: true, maxLength: 500, description: "The first 500 characters of the last answer's body." })
  response_excerpt: string | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 84, description: 'How long the last attempt took, in milliseconds.' })
  duration_ms: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'Why the last attempt failed.' })
  last_error: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the last attempt started; null before the first.' })
  last_attempt_at: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next try is due; null once delivered or given up.',
  })
  next_attempt_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When a 2xx came back; null until then.' })
  delivered_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', description: 'When the event planned this delivery; the log keeps 30 days.' })
  created_at: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "The JSON body sent: the event's envelope, or the chat message for a chat endpoint.",
  })
  payload: Record<string, unknown> | null;

  @ApiProperty({
    type: [WebhookDeliveryAttemptDto],
    maxItems: ATTEMPTS_KEPT,
    description: `Every request sent for this delivery, oldest first, across retries and recoveries (the newest ${ATTEMPTS_KEPT} are kept).`,
  })
  attempt_log: WebhookDeliveryAttemptDto[];
}

export function toDeliveryDto(
  row: WebhookDeliveryEntity,
  payload: Record<string, unknown> | null,
  attempts: readonly WebhookDeliveryAttemptEntity[],
): WebhookDeliveryDto {
  return {
    id: row.id,
    endpoint_id: row.endpointId,
    event_id: row.eventId,
    event_type: row.eventType,
    status: row.status,
    attempts: row.attempts,
    response_status: row.responseStatus,
    response_excerpt: row.responseExcerpt,
    duration_ms: row.durationMs,
    last_error: row.lastError,
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    next_attempt_at: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    payload,
    attempt_log: attempts.map(toDeliveryAttemptDto),
  };
}

/** `POST /v1/webhooks/{id}/recover`'s answer. */
export class RecoverResultDto {
  @ApiProperty({ type: 'integer', example: 3, description: 'Failed deliveries sent again, each with its original event id.' })
  requeued: number;
}

/** `POST /v1/webhooks/{id}/test`'s answer: the outcome of the one attempt it made. */
export class WebhookTestResultDto {
  @ApiProperty({ example: true, description: 'Whether a 2xx came back within the timeout.' })
  delivered: boolean;

  @ApiProperty({ example: 'evt_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', description: 'The test event id (not stored; never retried).' })
  event_id: string;

  @ApiProperty({ example: 'webhook.test' })
  event_type: string;

  @ApiProperty({ type: 'integer', nullable: true, example: 200 })
  response_status: number | null;

  @ApiProperty({ type: String, nullable: true, maxLength: 500, description: "The first 500 characters of the answer's body." })
  response_excerpt: string | null;

  @ApiProperty({ type: 'integer', example: 84 })
  duration_ms: number;

  @ApiProperty({ type: String, nullable: true, description: 'Why it failed; null when delivered.' })
  error: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The JSON body sent.' })
  payload: Record<string, unknown>;
}
