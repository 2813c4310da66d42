import { ApiProperty } from '@nestjs/swagger';
import type { ChangelogSubscriberEntity } from '../../entities/changelog-subscriber.entity';

/** Spec: Changelog subscriber. Exactly its five fields; labels are answered by the label routes. */
export class SubscriberDto {
  @ApiProperty({ example: 'sub_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^sub_[0-9A-HJKMNP-TV-Z]{26}$' })
  id: string;

  @ApiProperty({ example: 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^prj_[0-9A-HJKMNP-TV-Z]{26}$' })
  project_id: string;

  @ApiProperty({ format: 'email', maxLength: 254, example: 'ada@example.com' })
  email: string;

  @ApiProperty({
    example: false,
    description: 'True when subscribed with a secret key, or once the person followed the link in the confirmation email.',
  })
  confirmed: boolean;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z' })
  created_at: string;
}

export function toSubscriberDto(row: ChangelogSubscriberEntity): SubscriberDto {
  return {
    id: row.id,
    project_id: row.projectId,
    email: row.email,
    confirmed: row.confirmed,
    created_at: row.createdAt.toISOString(),
  };
}
