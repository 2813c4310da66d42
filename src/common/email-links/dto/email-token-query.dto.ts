import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

/** `?token=` of a link in an email (link-tokens.ts). */
export class EmailTokenQueryDto {
  @ApiProperty({ example: 'q3J0cW…', minLength: 1, maxLength: 128, description: 'The token from the link in the email.' })
  @IsString()
  @Length(1, 128)
  token: string;
}
