import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * The end-user fields of routes declared with `@Auth('publishable', { userHash })`. The route-policy
 * guard reads and checks them before validation; query and body DTOs of those routes extend this
 * class so the validation pipe accepts them.
 */
export class EndUserFieldsDto {
  @ApiPropertyOptional({ description: 'The id of the signed-in person this call is for (1 to 256 characters).', example: 'user_42' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  user_id?: string;

  @ApiPropertyOptional({
    description:
      'HMAC-SHA256 of user_id keyed with the notification signing secret, lowercase hex. Also accepted as the X-Service-User-Hash header.',
    example: '3f1c9a0e5b7d2f4a6c8e0b1d3f5a7c9e1b3d5f7a9c0e2b4d6f8a0c2e4b6d8f0a',
  })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  user_hash?: string;
}
