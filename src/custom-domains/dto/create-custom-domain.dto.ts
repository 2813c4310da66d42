import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

export class CreateCustomDomainDto {
  @ApiProperty({
    example: 'changelog.example.com',
    maxLength: 260,
    description: 'A DNS name you control; stored lower-cased without a trailing dot. Not an IP address, not our own host.',
  })
  @IsString()
  @MaxLength(260)
  hostname!: string;
}
