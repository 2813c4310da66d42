import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';

export class ConnectProcessorDto {
  @ApiProperty({
    example: 'rk_live_51NxExampleRestrictedKey0000000000',
    description:
      'A restricted key (rk_live_ or rk_test_) with read access to customers, subscriptions, invoices, prices and events. Sealed at rest and never shown again.',
    minLength: 8,
    maxLength: 255,
  })
  @IsString()
  @MinLength(8)
  @MaxLength(255)
  key!: string;
}
