import { ApiProperty } from '@nestjs/swagger';
import { NotificationDto, toNotificationDto } from '../../dto/notification.dto';
import type { NotificationEntity } from '../../entities/notification.entity';

/**
 * A notification as its sender sees it: the bell item (per-person fields false and null) plus who
 * it went to and how it behaves. `audience` is `user` for one person, `group` for a group send and
 * `all` for a broadcast.
 */
export class SentNotificationDto extends NotificationDto {
  @ApiProperty({ enum: ['user', 'group', 'all'], example: 'user' })
  audience: 'user' | 'group' | 'all';

  @ApiProperty({ type: String, nullable: true, example: 'user_42', description: 'The person of a single-user send; null otherwise.' })
  user_id: string | null;

  @ApiProperty({ example: 1, description: 'People it was sent to: 1, the group size, or 0 for a broadcast.' })
  recipient_count: number;

  @ApiProperty({ example: false })
  pinned: boolean;

  @ApiProperty({
    type: [String],
    nullable: true,
    example: ['like', 'celebrate'],
    description: 'The reactions it takes, in order; null: none.',
  })
  reactions: string[] | null;
}

export class NotificationStatsDto {
  @ApiProperty({ example: 120, description: '1, the group size, or (broadcast) bell users who asked after it showed; 0 while scheduled.' })
  reached: number;

  @ApiProperty({ example: 60 })
  read: number;

  @ApiProperty({ example: 12 })
  clicked: number;

  @ApiProperty({ type: Number, nullable: true, example: 0.5 })
  read_rate: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 0.1 })
  click_rate: number | null;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, nullable: true, example: { like: 4, celebrate: 1 } })
  reactions: Record<string, number> | null;

  @ApiProperty({ type: Number, nullable: true, example: 300, description: 'Broadcast only: bell users seen in the last 7 days.' })
  active_7d: number | null;
}

export class NotificationDetailDto extends SentNotificationDto {
  @ApiProperty({ type: NotificationStatsDto, description: 'What became of it (spec: Notification stats).' })
  stats: NotificationStatsDto;
}

/** Spec: Notification settings → Usage. */
export class NotificationUsageDto {
  @ApiProperty({ example: '2026-11', description: 'The UTC calendar month.' })
  month: string;

  @ApiProperty({ example: 12 })
  sent: number;

  @ApiProperty({ example: 1000 })
  limit: number;

  @ApiProperty({ example: 988 })
  remaining: number;
}

/** Spec: Audience preview. */
export class AudiencePreviewDto {
  @ApiProperty({ example: 3, description: 'Distinct people named: reachable plus unreachable.' })
  people: number;

  @ApiProperty({ example: 2, description: 'Distinct user ids a send would go to.' })
  reachable: number;

  @ApiProperty({ example: 1 })
  unreachable: number;

  @ApiProperty({ type: [String], example: ['lead@example.com'], description: 'Up to 20 emails or contact ids that have no user id.' })
  unreachable_sample: string[];
}

/**
 * The bell view of `row` is the spec's; a row still marked scheduled whose time has come is shown
 * as visible (bells go by time, and the release job may merely be late).
 */
export function toSentNotificationDto(row: NotificationEntity, now: Date): SentNotificationDto {
  const shown = row.status === 'scheduled' && row.visibleAt.getTime() <= now.getTime() ? { ...row, status: 'visible' as const } : row;
  return {
    ...toNotificationDto(shown),
    audience: row.kind === 'broadcast' ? 'all' : row.kind,
    user_id: row.userId,
    recipient_count: row.recipientCount,
    pinned: row.pinned,
    reactions: row.reactions,
  };
}

export class DeletedNotificationDto {
  @ApiProperty({ example: 'ntf_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  id: string;

  @ApiProperty({ enum: [true], example: true })
  deleted: true;
}
