import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsHttpUrl } from '../../common/validation/http-url';

export class CreateCheckoutDto {
  @ApiProperty({ example: 'indie', description: 'indie or builder; any other name answers INVALID_PLAN.' })
  @IsString()
  @MaxLength(40)
  plan!: string;

  @ApiPropertyOptional({
    example: 'https://app.example.com/billing?checkout=success',
    description:
      'Where the provider sends the browser after paying: on a DASHBOARD_ORIGINS origin or PUBLIC_BASE_URL. Default: the first dashboard origin (or PUBLIC_BASE_URL) + /billing?checkout=success.',
  })
  @IsOptional()
  @IsHttpUrl()
  @MaxLength(2048)
  success_url?: string;

  @ApiPropertyOptional({
    example: 'https://app.example.com/billing?checkout=cancelled',
    description: 'Where a cancelled checkout returns; same rule and default (checkout=cancelled).',
  })
  @IsOptional()
  @IsHttpUrl()
  @MaxLength(2048)
  cancel_url?: string;
}

export class CreatePortalSessionDto {
  @ApiPropertyOptional({
    example: 'https://app.example.com/billing',
    description:
      'Where the portal returns; on a DASHBOARD_ORIGINS origin or PUBLIC_BASE_URL. Default: the first dashboard origin (or PUBLIC_BASE_URL) + /billing.',
  })
  @IsOptional()
  @IsHttpUrl()
  @MaxLength(2048)
  return_url?: string;
}
