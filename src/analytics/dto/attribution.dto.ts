import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsDateTime } from '../../common/validation/date-time';

export const ATTRIBUTION_GROUPS = ['utm_source', 'utm_medium', 'utm_campaign', 'referrer', 'source', 'referred'] as const;
export type AttributionGroup = (typeof ATTRIBUTION_GROUPS)[number];

export class AttributionQueryDto {
  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-10-01T00:00:00Z',
    description: 'Signups created at or after; default 90 days before `to`.',
  })
  @IsOptional()
  @IsDateTime()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-01T00:00:00Z', description: 'Signups created before; default now.' })
  @IsOptional()
  @IsDateTime()
  to?: string;

  @ApiPropertyOptional({
    enum: ATTRIBUTION_GROUPS,
    default: 'utm_source',
    example: 'utm_source',
    description:
      'utm_*: as the signup form sent them; referrer: its hostname; source: how they joined (api, widget, import); referred: whether a referral link brought them.',
  })
  @IsOptional()
  @IsIn(ATTRIBUTION_GROUPS)
  group_by?: AttributionGroup;
}

export class AttributionMrrDto {
  @ApiProperty({ example: 'usd' }) currency: string;
  @ApiProperty({ example: 4900, description: 'Minor units.' }) mrr: number;
}

export class AttributionRowDto {
  @ApiProperty({ type: String, nullable: true, example: 'newsletter', description: 'The group; null for signups without the value.' })
  value: string | null;
  @ApiProperty({ example: 120, description: 'Waitlist signups created in the range.' }) signups: number;
  @ApiProperty({ example: 96, description: 'Of those, confirmed their email.' }) confirmed: number;
  @ApiProperty({ example: 40, description: 'Of those, linked to a user id by identify.' }) identified: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 6,
    description: 'Of those, paying now; null without a synced processor connection.',
  })
  paying: number | null;
  @ApiProperty({ type: AttributionMrrDto, isArray: true, description: 'Their MRR now, per currency; empty without a connection.' })
  mrr: AttributionMrrDto[];
  @ApiProperty({ type: Number, nullable: true, example: 0.8, description: 'confirmed / signups.' }) confirmed_rate: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 0.333, description: 'identified / signups.' }) identified_rate: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 0.15, description: 'paying / identified.' }) paying_rate: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 0.05, description: 'paying / signups: the whole chain.' }) conversion_rate:
    number | null;
}

export class AttributionDto {
  @ApiProperty({ format: 'date-time', example: '2026-10-01T00:00:00.000Z' }) from: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-01T00:00:00.000Z' }) to: string;
  @ApiProperty({ enum: ATTRIBUTION_GROUPS, example: 'utm_source' }) group_by: AttributionGroup;
  @ApiProperty({ type: AttributionRowDto, isArray: true, description: 'One row per value, most signups first.' })
  groups: AttributionRowDto[];
}
