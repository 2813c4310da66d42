import { ApiProperty } from '@nestjs/swagger';

export class AfterReadingGroupDto {
  @ApiProperty({ example: 412, description: 'People in the group.' })
  people: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: null,
    description: 'First ever paid invoice in the window; null without a payment-processor connection.',
  })
  paid: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    example: null,
    description: '`paid` / `people`; null when either is unknown or the group is empty.',
  })
  paid_rate: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: null,
    description: 'Paid an invoice larger than the one before; null without a payment-processor connection.',
  })
  upgraded: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    example: null,
    description: '`upgraded` / `people`; null when either is unknown or the group is empty.',
  })
  upgraded_rate: number | null;

  @ApiProperty({ type: 'integer', nullable: true, enum: [null], example: null, description: 'Always null: not computed (see `notes`).' })
  signed_up: null;
}

export class AfterReadingWindowDto {
  @ApiProperty({ format: 'date-time', description: 'Publication.' })
  from: string;

  @ApiProperty({ format: 'date-time', description: '14 days after publication.' })
  to: string;

  @ApiProperty({ description: 'False while the 14 days are still running: the numbers can still change.' })
  complete: boolean;
}

export class AfterReadingNoteDto {
  @ApiProperty({ example: 'signed_up', description: 'The outcome the note is about.' })
  field: string;

  @ApiProperty({ enum: ['not_computed', 'no_processor_connection'], example: 'not_computed' })
  code: string;

  @ApiProperty({ example: 'Sign-ups are not computed: people who sign up after reading were not known before publication.' })
  message: string;
}

/** Spec: After reading (Builder). */
export class AfterReadingDto {
  @ApiProperty({ example: 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  entry_id: string;

  @ApiProperty({ type: AfterReadingWindowDto, description: 'The 14 days after publication.' })
  window: AfterReadingWindowDto;

  @ApiProperty({ type: AfterReadingGroupDto, description: 'Signed-in people shown the entry in the window.' })
  readers: AfterReadingGroupDto;

  @ApiProperty({
    type: AfterReadingGroupDto,
    description: 'People known by user id before publication who were not shown it in the window.',
  })
  non_readers: AfterReadingGroupDto;

  @ApiProperty({
    description:
      'True when either group has fewer than 30 people or fewer than 5 outcome events (no events are known without a processor connection).',
  })
  small_numbers: boolean;

  @ApiProperty({ type: [AfterReadingNoteDto], description: 'Why outcomes are null.' })
  notes: AfterReadingNoteDto[];
}
