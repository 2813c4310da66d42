import { ApiProperty } from '@nestjs/swagger';
import { claimExpiresAt, servingEndsAt } from '../domain-claims';
import { CustomDomainEntity } from '../entities/custom-domain.entity';
import { verificationRecordName, verificationRecordValue } from '../hostnames';

export class DomainDnsRecordDto {
  @ApiProperty({ enum: ['TXT', 'CNAME'], example: 'TXT' })
  type: 'TXT' | 'CNAME';

  @ApiProperty({
    enum: ['verification', 'routing'],
    example: 'verification',
    description:
      'verification: the TXT record proves control of the hostname. routing: the CNAME sends its traffic here; it proves nothing.',
  })
  purpose: 'verification' | 'routing';

  @ApiProperty({ example: '_launch-service.changelog.example.com' })
  name: string;

  @ApiProperty({ example: 'launch-service-verification=3f9c2a7d5b1e4f60a8c9d2e1b7a6f5c4' })
  value: string;
}

export class CustomDomainDto {
  @ApiProperty({ example: 'dom_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^dom_[0-9A-HJKMNP-TV-Z]{26}$' })
  id: string;

  @ApiProperty({ example: 'changelog.example.com' })
  hostname: string;

  @ApiProperty({
    enum: ['pending', 'verified', 'failing'],
    example: 'pending',
    description:
      'verified: the hostname serves the hosted changelog, its feeds and the waitlist page; its TXT record is checked again daily. failing: verified, still serving, but the daily check found the TXT record gone (last_check_error says what was looked for); put it back, or it stops serving at expires_at. pending: other projects may claim it too; the first to verify holds it. A lookup that fails (a DNS timeout) changes no status.',
  })
  status: 'pending' | 'verified' | 'failing';

  @ApiProperty({
    type: [DomainDnsRecordDto],
    description:
      "The TXT record with this claim's token proves control and is the only proof; the CNAME to the target routes the traffic once verified.",
  })
  dns_records: DomainDnsRecordDto[];

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-20T10:00:00.000Z' })
  verified_at: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-11-27T09:58:00.000Z',
    description:
      'Pending: when the claim lapses unverified (7 days after it was added, or after the daily check stopped serving it); it then leaves the list and must be added again. Failing: when the hostname stops serving and becomes a pending claim again unless a check passes first (7 days after the TXT record was first found gone). Null while verified.',
  })
  expires_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-20T09:59:00.000Z' })
  last_checked_at: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example:
      'No TXT record _launch-service.changelog.example.com with the value launch-service-verification=3f9c2a7d5b1e4f60a8c9d2e1b7a6f5c4.',
    description: 'Why the last check failed; null after a success or before any check.',
  })
  last_check_error: string | null;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-20T09:58:00.000Z' })
  created_at: string;
}

export function toCustomDomainDto(row: CustomDomainEntity, cnameTarget: string): CustomDomainDto {
  return {
    id: row.id,
    hostname: row.hostname,
    status: row.verifiedAt ? (row.failingSince ? 'failing' : 'verified') : 'pending',
    dns_records: [
      {
        type: 'TXT',
        purpose: 'verification',
        name: verificationRecordName(row.hostname),
        value: verificationRecordValue(row.verificationToken),
      },
      { type: 'CNAME', purpose: 'routing', name: row.hostname, value: cnameTarget },
    ],
    verified_at: row.verifiedAt?.toISOString() ?? null,
    expires_at: expiresAt(row)?.toISOString() ?? null,
    last_checked_at: row.lastCheckedAt?.toISOString() ?? null,
    last_check_error: row.lastCheckError,
    created_at: row.createdAt.toISOString(),
  };
}

function expiresAt(row: CustomDomainEntity): Date | null {
  if (!row.verifiedAt) return claimExpiresAt(row.pendingSince);
  return row.failingSince ? servingEndsAt(row.failingSince) : null;
}

export class DeletedCustomDomainDto {
  @ApiProperty({ example: 'dom_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  id: string;

  @ApiProperty({ enum: [true], example: true })
  deleted: true;
}
