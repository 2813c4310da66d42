import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { EndUserFieldsDto } from '../../../auth/dto/end-user.dto';
import { CATEGORY_PATTERN } from './bell-query.dto';

/** The optional body of `PATCH {id}/read` and `{id}/click`: the end user only. */
export class BellTouchDto extends EndUserFieldsDto {}

export class ArchiveNotificationDto extends EndUserFieldsDto {
  @ApiPropertyOptional({ default: true, description: 'false restores an archived notification.' })
  @IsOptional()
  @IsBoolean()
  archived?: boolean;
}

export class ReadAllDto extends EndUserFieldsDto {
  @ApiPropertyOptional({ example: 'billing', description: 'Only this category.' })
  @IsOptional()
  @Matches(CATEGORY_PATTERN, { message: 'category must be a short lower-case name (a-z, 0-9, _ and -, at most 64 characters)' })
  category?: string;
}

export class ReactionDto extends EndUserFieldsDto {
  @ApiProperty({ example: 'celebrate', description: "One of the notification's `reactions`." })
  @IsString()
  @MaxLength(16)
  reaction: string;
}

export class UnreadCountDto {
  @ApiProperty({ example: 3, description: 'Unread notifications in the bell (archived ones left out).' })
  unread_count: number;
}

export class ReadAllResultDto {
  @ApiProperty({ example: 5, description: 'Notifications that became read.' })
  updated: number;

  @ApiProperty({ example: 0, description: 'Unread notifications left in the bell (other categories).' })
  unread_count: number;
}
