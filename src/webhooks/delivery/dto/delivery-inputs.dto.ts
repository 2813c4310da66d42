import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../../common/http/page-query.dto';
import { IsDateTime } from '../../../common/validation/date-time';

/** Filters of `GET /v1/webhooks/{id}/deliveries`. */
export class ListDeliveriesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'delivered', 'failed'], description: 'Only deliveries in this state.' })
  @IsOptional()
  @IsIn(['pending', 'delivered', 'failed'])
  status?: 'pending' | 'delivered' | 'failed';
}

/** Body of `POST /v1/webhooks/{id}/recover`. */
export class RecoverDeliveriesDto {
  @ApiProperty({
    format: 'date-time',
    example: '2026-11-20T10:00:00Z',
    description: 'Send again every failed delivery created at or after this time (at most 30 days back: older ones are deleted).',
  })
  @IsDateTime()
  since: string;
}
