import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { PageQueryDto } from '../../../common/http/page-query.dto';
import { CharLength } from '../../../common/validation/char-length';
import { CATEGORY_PATTERN, NOTIFICATION_LIMITS } from '../notification-input';

const LIST_STATUSES = ['read', 'unread', 'scheduled'] as const;
type ListStatus = (typeof LIST_STATUSES)[number];

/** Filters of `GET /v1/notifications`; they combine with AND. */
export class ListNotificationsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    example: 'user_42',
    maxLength: NOTIFICATION_LIMITS.userIdMax,
    description: 'Sent to this person, alone or in a group (broadcasts excluded).',
  })
  @IsOptional()
  @CharLength(1, NOTIFICATION_LIMITS.userIdMax)
  user_id?: string;

  @ApiPropertyOptional({
    enum: ['user', 'group', 'all'],
    description: '`user`: single-user and group sends; `group`: group sends only; `all`: broadcasts.',
  })
  @IsOptional()
  @IsIn(['user', 'group', 'all'])
  audience?: 'user' | 'group' | 'all';

  @ApiPropertyOptional({
    enum: LIST_STATUSES,
    description:
      "With user_id: that person's state. Without: `read` = read by at least one person, `unread` = shown and read by nobody. `scheduled`: waiting for send_at.",
  })
  @IsOptional()
  @IsIn(LIST_STATUSES)
  status?: ListStatus;

  @ApiPropertyOptional({ example: 'billing' })
  @IsOptional()
  @Matches(CATEGORY_PATTERN, { message: 'category must be a category name (lower-case letters, digits, "_" or "-")' })
  category?: string;
}
