import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';

/** A project's notification settings (spec: Notification settings). */
export class NotificationSettingsDto {
  @ApiProperty({ description: 'Bell calls from a browser must carry a valid user_hash.', example: true })
  require_user_hash: boolean;

  @ApiProperty({
    description: 'The notify_in_app of a new changelog entry that does not say: true sends published entries to the bell.',
    example: false,
  })
  changelog_to_bell_default: boolean;
}

export class UpdateNotificationSettingsDto {
  @ApiPropertyOptional({
    description: 'true switches identity verification on; false answers legacy bell calls without a hash.',
    example: true,
  })
  @IsOptional()
  @IsBoolean()
  require_user_hash?: boolean;

  @ApiPropertyOptional({ description: 'The notify_in_app default of new changelog entries.', example: true })
  @IsOptional()
  @IsBoolean()
  changelog_to_bell_default?: boolean;
}
