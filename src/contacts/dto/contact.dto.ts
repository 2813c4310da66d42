import { ApiProperty } from '@nestjs/swagger';
import { CONTACT_STAGES, type ContactStage } from '../contact-stages';
import { ContactEntity } from '../entities/contact.entity';

interface ConsentDto {
  status: 'granted' | 'withdrawn';
  updated_at: string;
}

const CONSENT_SCHEMA = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['granted', 'withdrawn'] }, updated_at: { type: 'string', format: 'date-time' } },
  required: ['status', 'updated_at'],
  additionalProperties: false,
};

/** A person the project knows. */
export class ContactDto {
  @ApiProperty({ example: 'ct_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^ct_[0-9A-HJKMNP-TV-Z]{26}$' })
  id: string;

  @ApiProperty({ type: String, nullable: true, example: 'ada@example.com', description: 'Lower-cased.' })
  email: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'user_42', description: "The product's own id for this person." })
  user_id: string | null;

  @ApiProperty({
    enum: CONTACT_STAGES,
    example: 'waitlist',
    description:
      'How far the person has come: `lead` (an email we know: subscriber or feedback), `waitlist` (joined the waitlist), `invited` (invited from the waitlist), `user` (identified as a product user). Stages only move forward.',
  })
  stage: ContactStage;

  @ApiProperty({
    type: 'object',
    additionalProperties: CONSENT_SCHEMA,
    example: { changelog_emails: { status: 'granted', updated_at: '2026-11-20T10:00:00.000Z' } },
    description: 'Consent per purpose (such as `waitlist_emails`, `changelog_emails`).',
  })
  consents: Record<string, ConsentDto>;

  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    example: { plan: 'pro', seats: 3 },
    description: 'Free-form details: strings, numbers and booleans.',
  })
  details: Record<string, string | number | boolean>;

  @ApiProperty({ example: false, description: 'Whether the person pays for the product.' })
  paying: boolean;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z', description: 'When the project first met this person.' })
  created_at: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T08:30:00.000Z', description: 'The last change to stage, details or consents.' })
  updated_at: string;
}

export function toContactDto(row: ContactEntity): ContactDto {
  return {
    id: row.id,
    email: row.email,
    user_id: row.userId,
    stage: row.stage,
    consents: row.consents,
    details: row.details,
    paying: row.paying,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
