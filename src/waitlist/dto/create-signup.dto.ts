import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { EmailField } from '../../common/validation/email-field';
import { IsFlatRecord } from '../../common/validation/flat-record';
import { REFERRAL_CODE_PATTERN } from '../referral';

/** Where the person came from (spec: Waitlist source limits). No other keys are accepted. */
export class SignupSourceDto {
  @ApiPropertyOptional({ example: 'https://news.example.com/launches', maxLength: 2048, description: 'The page that linked here.' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  referrer?: string;

  @ApiPropertyOptional({ example: 'newsletter', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  utm_source?: string;

  @ApiPropertyOptional({ example: 'email', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  utm_medium?: string;

  @ApiPropertyOptional({ example: 'launch-week', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  utm_campaign?: string;

  @ApiPropertyOptional({ example: '/pricing', maxLength: 512, description: 'The path of the page with the signup form.' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  landing_path?: string;
}

export class CreateSignupDto {
  @EmailField({ description: 'Stored trimmed and lower-cased; one signup per email and project.' })
  email: string;

  @ApiPropertyOptional({
    example: 'K7M2Q9XA',
    pattern: REFERRAL_CODE_PATTERN.source,
    description:
      'The referral code of the person who shared the link (case-insensitive). A code of this project credits its owner; an unknown code is ignored.',
  })
  @IsOptional()
  @Matches(REFERRAL_CODE_PATTERN, { message: 'referrer_code must be exactly 8 letters or digits' })
  referrer_code?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    example: { company: 'Analytical Engines', seats: 3 },
    description: 'Free-form details: at most 50 keys of up to 64 characters; values string, number or boolean. Copied to the contact.',
  })
  @IsOptional()
  @IsFlatRecord()
  metadata?: Record<string, string | number | boolean>;

  @ApiPropertyOptional({
    type: SignupSourceDto,
    description: 'Where the person came from; kept with the signup and sent in `waitlist.signup.created`.',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => SignupSourceDto)
  source?: SignupSourceDto;

  @ApiPropertyOptional({
    example: '0.Zr3n…',
    maxLength: 2048,
    description:
      'Bot-check token from the browser widget. Required on publishable-key signups when the server has a bot-check secret configured; ' +
      'secret-key (server-side) signups need none, and a token they forward is checked.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  turnstile_token?: string;
}
