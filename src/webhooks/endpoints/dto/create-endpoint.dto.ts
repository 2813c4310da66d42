import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString } from 'class-validator';
import { EVENT_TYPES } from '../../../events/event-catalog';
import { WEBHOOK_FORMATS, type WebhookFormat } from '../../entities/webhook-endpoint.entity';
import { WEBHOOK_URL_MAX_LENGTH } from '../../url-policy/url-rules';

/** At most this many entries in `events` (ours): more than the catalog has, far fewer than abuse needs. */
export const EVENTS_MAX_ITEMS = 50;

const URL_DOC =
  'https:// on the default port, a public hostname (no IP address, no internal name such as localhost or *.internal) that resolves only to public addresses, no username or password. Redirects are never followed. Stored encrypted; later answers show it masked.';

/** `POST /v1/webhooks` (spec: Endpoints → Webhooks). */
export class CreateEndpointDto {
  @ApiProperty({ example: 'https://example.com/webhooks/launch', maxLength: WEBHOOK_URL_MAX_LENGTH, description: URL_DOC })
  @IsString()
  url: string;

  @ApiProperty({
    type: [String],
    example: ['waitlist.signup.created', 'feedback.created'],
    maxItems: EVENTS_MAX_ITEMS,
    description: `Event types (${EVENT_TYPES.join(', ')}), or ["*"] for every type including future ones.`,
  })
  @IsArray()
  @ArrayMaxSize(EVENTS_MAX_ITEMS)
  @IsString({ each: true })
  events: string[];

  @ApiPropertyOptional({
    enum: WEBHOOK_FORMATS,
    example: 'json',
    description:
      'json (default): the signed JSON envelope. chat_a: a Slack-style incoming webhook (https://hooks.slack.com/services/…). chat_b: a Discord-style webhook (https://discord.com/api/webhooks/<id>/<token>). Chat formats receive readable text.',
  })
  @IsOptional()
  @IsIn(WEBHOOK_FORMATS)
  format?: WebhookFormat;
}
