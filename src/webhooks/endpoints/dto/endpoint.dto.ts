import { ApiProperty } from '@nestjs/swagger';
import { EVENT_CATALOG, EVENT_TYPES } from '../../../events/event-catalog';
import {
  WEBHOOK_FORMATS,
  type WebhookEndpointEntity,
  type WebhookFormat,
  type WebhookStatus,
} from '../../entities/webhook-endpoint.entity';

const ID_PATTERN = '^we_[0-9A-HJKMNP-TV-Z]{26}$';

/** A webhook endpoint as every answer shows it: the URL masked, the secret never. */
export class EndpointDto {
  @ApiProperty({ example: 'we_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: ID_PATTERN })
  id: string;

  @ApiProperty({
    example: 'https://hooks.example.com/…/unch',
    description: 'Masked: scheme and host, then "/…/" and the last 4 characters of the rest. The full URL is never shown again.',
  })
  url: string;

  @ApiProperty({ type: [String], example: ['waitlist.signup.created', 'feedback.created'], description: 'Event types, or ["*"] for all.' })
  events: string[];

  @ApiProperty({ enum: WEBHOOK_FORMATS, example: 'json' })
  format: WebhookFormat;

  @ApiProperty({
    enum: ['enabled', 'disabled'],
    example: 'enabled',
    description: 'disabled: switched off after 20 failed deliveries in a row, or by the owner.',
  })
  status: WebhookStatus;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Why the endpoint is disabled; null while enabled.' })
  disabled_reason: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  disabled_at: string | null;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 0,
    description: 'Failed deliveries in a row; a success resets it, 20 disables the endpoint.',
  })
  consecutive_failures: number;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z' })
  created_at: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z' })
  updated_at: string;
}

/** The create answer: the endpoint and its signing secret, shown this once. */
export class CreatedEndpointDto extends EndpointDto {
  @ApiProperty({
    example: 'whsec_3q2-7wEXAMPLEc2VjcmV0LXRva2VuLTE',
    description: 'Signs every delivery (Service-Signature). Shown only in this answer: store it now.',
  })
  signing_secret: string;
}

/** The rotate answer: the new secret once, and until when the old one still signs. */
export class RotatedEndpointDto extends CreatedEndpointDto {
  @ApiProperty({
    format: 'date-time',
    example: '2026-11-21T10:00:00.000Z',
    description: 'Until then deliveries carry two v1 signatures (new, then old), so receivers can switch without losing any.',
  })
  previous_secret_valid_until: string;
}

export class EventTypeDto {
  @ApiProperty({ enum: EVENT_TYPES, example: 'feedback.created' })
  type: string;

  @ApiProperty({ example: EVENT_CATALOG['feedback.created'].description })
  description: string;
}

/** `GET /v1/webhooks`: the project's endpoints, the plan's limit, and what can be subscribed to. */
export class EndpointListDto {
  @ApiProperty({ type: [EndpointDto], description: 'Oldest first.' })
  endpoints: EndpointDto[];

  @ApiProperty({ type: 'integer', minimum: 0, example: 2, description: "The plan's endpoint limit (Free 0, Indie 2, Builder 5)." })
  limit: number;

  @ApiProperty({ type: [EventTypeDto], description: 'Every subscribable event type; ["*"] subscribes to all, future ones included.' })
  events: EventTypeDto[];
}

export function toEndpointDto(row: WebhookEndpointEntity): EndpointDto {
  return {
    id: row.id,
    url: row.urlMasked,
    events: row.events,
    format: row.format,
    status: row.status,
    disabled_reason: row.disabledReason,
    disabled_at: row.disabledAt ? row.disabledAt.toISOString() : null,
    consecutive_failures: row.consecutiveFailures,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function subscribableEvents(): EventTypeDto[] {
  return EVENT_TYPES.map((type) => ({ type, description: EVENT_CATALOG[type].description }));
}
