import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { CharLength } from '../../../common/validation/char-length';
import { IsDateTime } from '../../../common/validation/date-time';
import { ANNOUNCEMENT_STYLES, type AnnouncementStyle, ENTRY_AUDIENCES, type EntryAudience } from '../../entities/changelog-entry.entity';
import { ENTRY_LIMITS } from '../entry-fields';

/** `{style, until}`: the entry is announced (modal, banner or toast) until that time. */
export class AnnouncementInputDto {
  @ApiProperty({ enum: ANNOUNCEMENT_STYLES, example: 'banner' })
  @IsIn(ANNOUNCEMENT_STYLES)
  style: AnnouncementStyle;

  @ApiProperty({ format: 'date-time', example: '2026-12-01T00:00:00Z', description: 'In the future.' })
  @IsDateTime()
  until: string;
}

export const SEGMENT_SCHEMA = {
  type: 'object',
  nullable: true,
  required: ['match', 'rules'],
  properties: {
    match: { type: 'string', enum: ['all', 'any'] },
    rules: {
      type: 'array',
      maxItems: 10,
      items: {
        type: 'object',
        required: ['type'],
        properties: {
          type: { type: 'string', enum: ['detail', 'consent'] },
          key: { type: 'string', description: 'detail: the contact detail to test.' },
          op: { type: 'string', enum: ['eq', 'neq', 'in', 'exists'], description: 'detail only.' },
          value: {
            oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
            description: 'detail: one string with eq/neq, a list with in, absent with exists.',
          },
          purpose: { type: 'string', description: 'consent: the consent purpose.' },
          // Said, not a `default`: answers carry this schema too, and a detail rule has no status.
          status: { type: 'string', enum: ['granted', 'withdrawn'], description: 'consent only. Default: `granted`.' },
        },
      },
    },
  },
  example: { match: 'all', rules: [{ type: 'detail', key: 'plan', op: 'in', value: ['pro', 'team'] }] },
  description: 'Who sees a `segment` entry (Builder plan). Required with audience `segment`, refused otherwise.',
};

/**
 * The fields create and update share (spec: Changelog entry input). Not shown in the owner view;
 * single-entry answers return them in `meta.entry_options`.
 */
export class EntryFieldsInputDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ENTRY_LIMITS.urlMax, example: 'https://cdn.example.com/export.png' })
  @IsOptional()
  @CharLength(1, ENTRY_LIMITS.urlMax)
  cover_image_url?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: ENTRY_LIMITS.ctaLabelMax, example: 'Try the export' })
  @IsOptional()
  @CharLength(1, ENTRY_LIMITS.ctaLabelMax)
  cta_label?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: ENTRY_LIMITS.urlMax,
    example: '/settings/export',
    description: 'An http(s) URL or a site path starting with "/". Send with cta_label, or both null.',
  })
  @IsOptional()
  @CharLength(1, ENTRY_LIMITS.urlMax)
  cta_url?: string | null;

  @ApiPropertyOptional({
    type: [String],
    maxItems: ENTRY_LIMITS.labelsMax,
    example: ['export'],
    description: "Label slugs of the project; replaces the entry's labels.",
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(ENTRY_LIMITS.labelsMax)
  @CharLength(1, 40, { each: true })
  labels?: string[];

  @ApiPropertyOptional({
    enum: ENTRY_AUDIENCES,
    example: 'public',
    // Not a `default`: this class is the update input too, where leaving it out changes nothing.
    description: 'Who sees the entry. Left out: `public` on create, unchanged on update.',
  })
  @IsOptional()
  @IsIn(ENTRY_AUDIENCES)
  audience?: EntryAudience;

  @ApiPropertyOptional(SEGMENT_SCHEMA as object)
  @IsOptional()
  @IsObject()
  segment?: object | null;

  @ApiPropertyOptional({ example: false, description: 'Pinned entries come first in the widget and hosted page.' })
  @IsOptional()
  @IsBoolean()
  pinned?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'After this time the entry leaves every public surface.',
  })
  @IsOptional()
  @IsDateTime()
  expires_at?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    required: ['style', 'until'],
    properties: { style: { type: 'string', enum: [...ANNOUNCEMENT_STYLES] }, until: { type: 'string', format: 'date-time' } },
    example: { style: 'banner', until: '2026-12-01T00:00:00.000Z' },
    // Inline rather than a $ref: OpenAPI 3.0 cannot mark a referenced schema nullable.
    description: 'Indie plan and up. Ends the announcement of any other entry.',
  } as object)
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AnnouncementInputDto)
  announcement?: AnnouncementInputDto | null;

  @ApiPropertyOptional({ example: false, description: 'Email matching subscribers on publish (public entries only). Default false.' })
  @IsOptional()
  @IsBoolean()
  notify_subscribers?: boolean;

  @ApiPropertyOptional({ example: false, description: 'Post one bell broadcast on publish (never for segment entries). Default false.' })
  @IsOptional()
  @IsBoolean()
  notify_in_app?: boolean;

  @ApiPropertyOptional({ example: true, description: 'False skips chat-service webhook endpoints. Default true.' })
  @IsOptional()
  @IsBoolean()
  notify_chat?: boolean;
}
