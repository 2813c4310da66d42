import { ApiProperty } from '@nestjs/swagger';
import { REQUIRED_READS } from '../processor.client';

export const SYNC_STATES = ['queued', 'running', 'retrying', 'synced', 'failed'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

export class SyncProgressDto {
  @ApiProperty({ example: 240 }) customers: number;
  @ApiProperty({ example: 198 }) subscriptions: number;
  @ApiProperty({ example: 1312 }) invoices: number;
  @ApiProperty({ example: 0 }) events: number;
}

export class SyncStatusDto {
  @ApiProperty({
    enum: SYNC_STATES,
    example: 'synced',
    description:
      'queued: waiting for a worker; running: a worker holds it; retrying: the last attempt failed (see last_error) and another is scheduled; synced: the last run finished; failed: the last run gave up.',
  })
  state: SyncState;

  @ApiProperty({
    enum: ['backfill', 'incremental', 'reconcile'],
    example: 'incremental',
    description: 'The run `state` and `progress` describe.',
  })
  kind: 'backfill' | 'incremental' | 'reconcile';

  @ApiProperty({ type: SyncProgressDto, description: 'Objects stored so far by that run.' })
  progress: SyncProgressDto;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Why the last attempt failed; null after a success.' })
  last_error: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-11-20T10:05:00.000Z',
    description: 'When the figures were last brought up to date.',
  })
  last_synced_at: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-11-20T10:10:00.000Z',
    description: 'When the next run is due.',
  })
  next_sync_at: string | null;
}

/** The project's processor connection; the key itself is never answered. */
export class ProcessorConnectionDto {
  @ApiProperty({ enum: ['stripe'], example: 'stripe' })
  provider: 'stripe';

  @ApiProperty({ example: '4f2a', description: 'The last four characters of the key.' })
  key_last_four: string;

  @ApiProperty({ enum: ['live', 'test'], example: 'live' })
  mode: 'live' | 'test';

  @ApiProperty({
    isArray: true,
    enum: REQUIRED_READS,
    example: [...REQUIRED_READS],
    description: 'Read permissions the key was found to have.',
  })
  permissions: string[];

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z' })
  connected_at: string;

  @ApiProperty({ type: SyncStatusDto, description: 'The sync: the run in progress, or the last one that ended.' })
  sync: SyncStatusDto;
}

export class SyncStartedDto {
  @ApiProperty({ example: 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  project_id: string;

  @ApiProperty({ enum: SYNC_STATES, example: 'queued' })
  status: SyncState;

  @ApiProperty({ enum: ['backfill', 'incremental', 'reconcile'], example: 'incremental' })
  kind: 'backfill' | 'incremental' | 'reconcile';
}

export class DisconnectedDto {
  @ApiProperty({ example: true })
  disconnected: true;
}
