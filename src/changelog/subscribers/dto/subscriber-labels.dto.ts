import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, Length } from 'class-validator';

/** Most labels one subscriber may follow in one request (ours; the largest plan has 100 per project on Builder). */
const MAX_FOLLOWED_LABELS = 100;

/** An array of label slugs (each 1-40 characters, the slug rule's length). */
export function LabelSlugsField(): PropertyDecorator {
  return applyDecorators(IsArray(), ArrayMaxSize(MAX_FOLLOWED_LABELS), IsString({ each: true }), Length(1, 40, { each: true }));
}

/** `PUT …/subscribers/{id}/labels` and `…/by-token/{token}/labels`. */
export class SetSubscriberLabelsDto {
  @ApiProperty({
    type: [String],
    example: ['api'],
    maxItems: MAX_FOLLOWED_LABELS,
    description: 'Label slugs; replaces what the subscriber follows. An empty list means every public entry.',
  })
  @LabelSlugsField()
  labels: string[];
}

/** The answer of the label routes: who, and what they follow now. */
export class SubscriberLabelsDto {
  @ApiProperty({ example: 'sub_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^sub_[0-9A-HJKMNP-TV-Z]{26}$' })
  id: string;

  @ApiProperty({ type: [String], example: ['api'], description: 'Label slugs in slug order; empty means every public entry.' })
  labels: string[];
}
