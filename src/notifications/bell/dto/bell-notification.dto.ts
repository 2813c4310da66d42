import { ApiProperty } from '@nestjs/swagger';
import { NotificationDto, toNotificationDto } from '../../dto/notification.dto';
import type { NotificationEntity } from '../../entities/notification.entity';
import type { BellRow } from '../bell.queries';

/**
 * A bell item: the spec's Notification (read, read_at, clicked, archived are the asking person's)
 * plus what a bell needs to draw it: whether it is pinned, the reactions it offers and the one
 * this person chose.
 */
export class BellNotificationDto extends NotificationDto {
  @ApiProperty({ example: false, description: 'Kept at the top of the bell until this person archives it.' })
  pinned: boolean;

  @ApiProperty({
    type: [String],
    nullable: true,
    example: ['like', 'celebrate'],
    description: 'The reaction names this notification takes, in order; null when it takes none.',
  })
  reactions: string[] | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: "This person's reaction, one of `reactions`, or null." })
  reaction: string | null;
}

export function toBellNotificationDto(row: BellRow): BellNotificationDto {
  // Everything a bell returns is visible by now (bell.queries.ts); a notification whose release job
  // has not run yet is shown as what it already is for the person: visible.
  const base = toNotificationDto({ ...row, status: 'visible' } as unknown as NotificationEntity, row);
  return { ...base, pinned: row.pinned, reactions: row.reactions, reaction: row.reaction };
}
