import { ApiProperty } from '@nestjs/swagger';

const count = (description: string) => ({ type: 'integer' as const, minimum: 0, example: 1, description });

/** How many rows of each kind an erasure removed or blanked. */
export class ErasureRemovedDto {
  @ApiProperty(count('The contact itself (1).'))
  contact: number;

  @ApiProperty(count('Waitlist signups with the email, deleted.'))
  waitlist_signups: number;

  @ApiProperty(count('Feedback whose email (and user id) was blanked; the text is kept.'))
  feedback: number;

  @ApiProperty(count('Changelog subscribers with the email, deleted.'))
  changelog_subscribers: number;

  @ApiProperty(count('Bell receipts (read, clicked, archived, reactions) of the user id, deleted.'))
  notification_receipts: number;

  @ApiProperty(count('Bell users (first and last seen) of the user id, deleted.'))
  bell_users: number;

  @ApiProperty(count('Group notification recipients with the user id, deleted.'))
  notification_recipients: number;

  @ApiProperty(count('Notifications addressed to the user id alone, deleted.'))
  notifications: number;

  @ApiProperty(count('Changelog entries the user id was shown (widget reads), deleted.'))
  changelog_readers: number;

  @ApiProperty(count('Changelog reactions of the user id, deleted (and taken off the counts).'))
  changelog_reactions: number;

  @ApiProperty(
    count('Emails to the address, deleted whatever their state: sent, failed (with their bodies) and queued (nothing more is sent).'),
  )
  mail_messages: number;

  @ApiProperty(
    count('Event payloads whose email or user id values were nulled; webhook deliveries, retries and recoveries are built from them.'),
  )
  events: number;

  @ApiProperty(
    count(
      'Stored Idempotency-Key answers that named the person (the email, the user id, or the id of a record of theirs erased here), deleted: a retry with such a key runs afresh.',
    ),
  )
  idempotent_answers: number;

  @ApiProperty(count('Webhook delivery log entries whose stored receiver answer quoted the person, with that excerpt cleared.'))
  webhook_responses: number;

  @ApiProperty(
    count('Payment-processor customers matched to the person, with their email, user id and contact link forgotten (amounts kept).'),
  )
  revenue_customers: number;
}

/** The kinds other modules count through the erasure registry, in the answer's order (`contact` is the contacts module's own). */
export const CONTRIBUTED_ERASURE_KINDS = [
  'waitlist_signups',
  'feedback',
  'changelog_subscribers',
  'notification_receipts',
  'bell_users',
  'notification_recipients',
  'notifications',
  'changelog_readers',
  'changelog_reactions',
  'mail_messages',
  'events',
  'idempotent_answers',
  'webhook_responses',
  'revenue_customers',
] as const;
export type ContributedErasureKind = (typeof CONTRIBUTED_ERASURE_KINDS)[number];

export class ErasureDto {
  @ApiProperty({ example: 'ct_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  contact_id: string;

  @ApiProperty({ enum: [true], example: true })
  erased: true;

  @ApiProperty({ type: ErasureRemovedDto, description: 'Rows removed or blanked, per kind.' })
  removed: ErasureRemovedDto;

  @ApiProperty({ example: 'cer_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', description: 'The audit record of this erasure (it holds no personal data).' })
  audit_id: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z' })
  erased_at: string;
}
