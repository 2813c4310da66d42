import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString } from 'class-validator';
import { WEBHOOK_FORMATS, type WebhookFormat, type WebhookStatus } from '../../entities/webhook-endpoint.entity';
import { WEBHOOK_URL_MAX_LENGTH } from '../../url-policy/url-rules';
import { EVENTS_MAX_ITEMS } from './create-endpoint.dto';

const SETTABLE_STATUSES = ['enabled', 'disabled'] as const satisfies readonly WebhookStatus[];

/** `PATCH /v1/webhooks/{id}`: only the fields sent change. */
export class UpdateEndpointDto {
  @ApiPropertyOptional({
    example: 'https://example.com/webhooks/launch-v2',
    maxLength: WEBHOOK_URL_MAX_LENGTH,
    description: 'A new URL, checked against the same rules as on create and stored encrypted.',
  })
  @IsOptional()
  @IsString()
  url?: string;

  @ApiPropertyOptional({ type: [String], example: ['*'], maxItems: EVENTS_MAX_ITEMS, description: 'Replaces the subscribed event types.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(EVENTS_MAX_ITEMS)
  @IsString({ each: true })
  events?: string[];

  @ApiPropertyOptional({ enum: WEBHOOK_FORMATS, example: 'json', description: 'The URL (new or stored) must fit the format.' })
  @IsOptional()
  @IsIn(WEBHOOK_FORMATS)
  format?: WebhookFormat;

  @ApiPropertyOptional({
    enum: SETTABLE_STATUSES,
    example: 'enabled',
    description:
      'enabled: switches a disabled endpoint back on and clears its failure count and reason. disabled: switches it off by hand (reason "disabled by the owner"); no deliveries are planned for it meanwhile.',
  })
  @IsOptional()
  @IsIn(SETTABLE_STATUSES)
  status?: WebhookStatus;
}
