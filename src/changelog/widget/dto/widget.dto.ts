import { ApiExtraModels, ApiProperty } from '@nestjs/swagger';
import { ApiNullableRef } from '../../../common/http/api-docs';
import { ANNOUNCEMENT_STYLES, type AnnouncementStyle, ENTRY_CATEGORIES, type EntryCategory } from '../../entities/changelog-entry.entity';
import { LABEL_COLOURS, type LabelColour } from '../../entities/changelog-label.entity';
import { REACTION_NAMES, type ReactionName } from '../../shared/reaction-set';

const REACTION_COUNTS_SCHEMA = {
  type: 'object',
  additionalProperties: { type: 'integer', minimum: 1 },
  example: { like: 12, celebrate: 3 },
  description: 'People per reaction of the reaction set; reactions nobody holds are left out.',
} as const;

export class WidgetLabelDto {
  @ApiProperty({ example: 'api' })
  slug: string;

  @ApiProperty({ example: 'API' })
  name: string;

  @ApiProperty({ enum: LABEL_COLOURS, example: 'blue' })
  colour: LabelColour;
}

export class WidgetCtaDto {
  @ApiProperty({ example: 'Try it' })
  label: string;

  @ApiProperty({ example: '/settings/theme', description: 'An http(s) URL or a path of your site.' })
  url: string;
}

/** An entry as the widget shows it to one reader. */
@ApiExtraModels(WidgetCtaDto)
export class WidgetEntryDto {
  @ApiProperty({ example: 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  id: string;

  @ApiProperty({ example: 'Dark mode' })
  title: string;

  @ApiProperty({ example: 'The dashboard now follows your **system theme**.' })
  body_markdown: string;

  @ApiProperty({
    example: '<p>The dashboard now follows your <strong>system theme</strong>.</p>',
    description: 'The body rendered and sanitised: safe to insert as HTML.',
  })
  body_html: string;

  @ApiProperty({ type: 'string', nullable: true, example: '2.4.0' })
  version: string | null;

  @ApiProperty({ enum: ENTRY_CATEGORIES, example: 'feature' })
  category: EntryCategory;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z' })
  published_at: string;

  @ApiProperty({
    type: 'string',
    format: 'uri',
    nullable: true,
    description: 'The hosted page of a public-audience entry; null for others (their page does not open for other people).',
  })
  public_url: string | null;

  @ApiProperty({ example: false })
  pinned: boolean;

  @ApiProperty({ type: [WidgetLabelDto], description: "The entry's labels, by name." })
  labels: WidgetLabelDto[];

  @ApiProperty({ type: 'string', format: 'uri', nullable: true, example: 'https://cdn.example.com/dark-mode.png' })
  cover_image_url: string | null;

  @ApiNullableRef(WidgetCtaDto, { description: "The entry's button, else null." })
  cta: WidgetCtaDto | null;

  @ApiProperty(REACTION_COUNTS_SCHEMA)
  reactions: Partial<Record<ReactionName, number>>;

  @ApiProperty({
    enum: [...REACTION_NAMES, null],
    nullable: true,
    description: "This reader's reaction (user_id or client_id), else null.",
  })
  my_reaction: ReactionName | null;

  @ApiProperty({ type: 'boolean', nullable: true, description: 'Whether this verified user was shown it before; null without a user_id.' })
  seen: boolean | null;
}

/** The entry to announce now (spec: Announcement). */
export class WidgetAnnouncementDto {
  @ApiProperty({ type: WidgetEntryDto, description: 'The announced entry.' })
  entry: WidgetEntryDto;

  @ApiProperty({ enum: ANNOUNCEMENT_STYLES, example: 'modal' })
  style: AnnouncementStyle;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, example: '2026-11-27T10:00:00.000Z' })
  until: string | null;

  @ApiProperty({
    example: 'ann_ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
    description: 'Stable for this announcement: an anonymous browser stores it and does not show the announcement again.',
  })
  once_key: string;
}

export class WidgetSubscribeDto {
  @ApiProperty({ example: true, description: 'Whether readers may subscribe by email.' })
  enabled: boolean;

  @ApiProperty({
    format: 'uri',
    example: 'https://launch.example.com/v1/changelog/subscribers',
    description: 'POST {email, labels?} here with the publishable key.',
  })
  url: string;
}

export class WidgetProjectDto {
  @ApiProperty({ example: 'Acme' })
  name: string;

  @ApiProperty({ example: true, description: 'Show the "Powered by Launch Service" badge (Free plan).' })
  show_badge: boolean;

  @ApiProperty({ format: 'uri', example: 'https://launch.example.com/changelog/acme' })
  hosted_url: string;

  @ApiProperty({ type: WidgetSubscribeDto, description: 'Email subscription to the changelog.' })
  subscribe: WidgetSubscribeDto;
}

/** `GET /v1/changelog/widget/entries`. */
@ApiExtraModels(WidgetAnnouncementDto)
export class WidgetEntriesDto {
  @ApiProperty({ type: [WidgetEntryDto], description: 'Not pinned, newest published first.' })
  entries: WidgetEntryDto[];

  @ApiProperty({ type: [WidgetEntryDto], description: 'Pinned entries, newest first: on the first page only (empty on later pages).' })
  pinned: WidgetEntryDto[];

  @ApiProperty({ type: 'string', nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' })
  next_cursor: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 2,
    description: 'Entries this verified user has not been shown (at most 100); null without a user_id.',
  })
  unseen_count: number | null;

  @ApiNullableRef(WidgetAnnouncementDto, { description: 'The entry announced to this reader now, else null.' })
  announcement: WidgetAnnouncementDto | null;

  @ApiProperty({ type: [WidgetLabelDto], description: 'Labels on at least one entry this reader may see (the filter).' })
  labels: WidgetLabelDto[];

  @ApiProperty({
    type: [String],
    enum: REACTION_NAMES,
    example: ['like', 'celebrate', 'dislike'],
    description: 'The reaction set, in order; empty when reactions are off.',
  })
  reactions: ReactionName[];

  @ApiProperty({ type: WidgetProjectDto, description: "The project's widget settings." })
  project: WidgetProjectDto;
}

export class WidgetUnseenDto {
  @ApiProperty({ example: 2, minimum: 0, maximum: 100, description: 'The launcher badge: entries not yet seen (at most 100).' })
  unseen_count: number;
}

@ApiExtraModels(WidgetAnnouncementDto)
export class WidgetAnnouncementAnswerDto {
  @ApiNullableRef(WidgetAnnouncementDto, { description: 'Null when nothing is announced to this reader now.' })
  announcement: WidgetAnnouncementDto | null;
}

export class WidgetRecordedDto {
  @ApiProperty({
    example: 2,
    minimum: 0,
    description:
      "Entries taken: those this reader may see, among those sent. Past the address's hourly cap for an entry the answer is the same, but the entry's number does not grow.",
  })
  recorded: number;
}

export class WidgetReactionsDto {
  @ApiProperty({ example: 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  entry_id: string;

  @ApiProperty(REACTION_COUNTS_SCHEMA)
  reactions: Partial<Record<ReactionName, number>>;

  @ApiProperty({ enum: [...REACTION_NAMES, null], nullable: true, description: "This reader's reaction, else null." })
  my_reaction: ReactionName | null;
}
