import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NOTIFICATION_ICONS, type NotificationEntity, type NotificationIcon } from '../entities/notification.entity';
import type { NotificationReceiptEntity } from '../entities/notification-receipt.entity';

export class NotificationActionDto {
  @ApiProperty({ example: 'Open report', maxLength: 40 })
  label: string;

  @ApiProperty({ example: 'https://app.example.com/reports/42', description: 'An http(s) URL or a site path.' })
  url: string;
}

/**
 * A notification as a bell shows it (spec: Notification): `read`, `read_at`, `clicked` and
 * `archived` are the asking person's; for the sender (secret key) they are false and null.
 * Scheduled notifications also carry `scheduled: true` and `visible_at`.
 */
export class NotificationDto {
  @ApiProperty({ example: 'ntf_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^ntf_[0-9A-HJKMNP-TV-Z]{26}$' })
  id: string;

  @ApiProperty({ example: 'Your export is ready', maxLength: 200 })
  title: string;

  @ApiProperty({ example: 'The PDF of March is ready to download.', maxLength: 2000, description: 'Plain text.' })
  body: string;

  @ApiProperty({ type: String, nullable: true, example: '/reports/42' })
  action_url: string | null;

  @ApiProperty({ enum: NOTIFICATION_ICONS, example: 'info' })
  icon: NotificationIcon;

  @ApiProperty({ type: String, nullable: true, example: 'billing' })
  category: string | null;

  @ApiProperty({ type: [NotificationActionDto], description: 'Up to 2 buttons.' })
  actions: NotificationActionDto[];

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: { report_id: 42 } })
  data: Record<string, unknown> | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-26T10:00:00.000Z' })
  created_at: string;

  @ApiProperty({ example: false })
  read: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  read_at: string | null;

  @ApiProperty({ example: false })
  clicked: boolean;

  @ApiProperty({ example: false })
  archived: boolean;

  @ApiProperty({ example: false, description: 'Sent to everyone (audience `all`).' })
  broadcast: boolean;

  @ApiPropertyOptional({ enum: [true], description: 'Present, and true, while the notification waits for its send_at.' })
  scheduled?: true;

  @ApiPropertyOptional({ format: 'date-time', description: 'When a scheduled notification shows.' })
  visible_at?: string;
}

/** The bell view of `row` for the person whose receipt is given (none: untouched, or the sender). */
export function toNotificationDto(
  row: NotificationEntity,
  receipt: Pick<NotificationReceiptEntity, 'readAt' | 'clickedAt' | 'archivedAt'> | null = null,
): NotificationDto {
  const dto: NotificationDto = {
    id: row.id,
    title: row.title,
    body: row.body,
    action_url: row.actionUrl,
    icon: row.icon,
    category: row.category,
    actions: row.actions,
    data: row.data,
    created_at: row.createdAt.toISOString(),
    read: receipt?.readAt != null,
    read_at: receipt?.readAt?.toISOString() ?? null,
    clicked: receipt?.clickedAt != null,
    archived: receipt?.archivedAt != null,
    broadcast: row.kind === 'broadcast',
  };
  if (row.status === 'scheduled') {
    dto.scheduled = true;
    dto.visible_at = row.visibleAt.toISOString();
  }
  return dto;
}
