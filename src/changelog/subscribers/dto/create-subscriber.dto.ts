import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { EmailField } from '../../../common/validation/email-field';
import { LabelSlugsField } from './subscriber-labels.dto';

/** `POST /v1/changelog/subscribers` (spec: Changelog subscriber, create input). */
export class CreateSubscriberDto {
  @EmailField({ description: 'Where the changelog emails go. Stored trimmed and lower-cased; one subscriber per address.' })
  email: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['api', 'mobile'],
    maxItems: 100,
    description: 'Label slugs to follow. Absent or empty: every public entry. An unknown slug is VALIDATION_ERROR.',
  })
  @IsOptional()
  @LabelSlugsField()
  labels?: string[];
}
