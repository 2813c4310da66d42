import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import type { ListedKey } from '../../../auth/api-keys.service';
import type { ApiKeyMode, ApiKeyType } from '../../../auth/entities/api-key.entity';

const KEY_TYPES = ['secret', 'publishable'] as const;
const KEY_MODES = ['live', 'test'] as const;

export class CreateKeyDto {
  @ApiProperty({ enum: KEY_TYPES, example: 'secret', description: 'Secret keys are for servers; publishable keys are safe in a browser.' })
  @IsIn(KEY_TYPES)
  type!: ApiKeyType;

  @ApiPropertyOptional({
    enum: KEY_MODES,
    example: 'live',
    description: "Default `live`. A `test` key (svc_test_) works on the project's test-mode twin, whose data is separate.",
  })
  @IsOptional()
  @IsIn(KEY_MODES)
  mode?: ApiKeyMode;
}

/** A key as lists show it: never the full key. */
export class KeyDto {
  @ApiProperty({ example: 'key_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  id: string;

  @ApiProperty({ enum: KEY_TYPES, example: 'secret' })
  type: ApiKeyType;

  @ApiProperty({ enum: KEY_MODES, example: 'live' })
  mode: ApiKeyMode;

  @ApiProperty({ example: 'svc_live_', description: 'The visible prefix of the key.' })
  prefix: string;

  @ApiProperty({ example: 'Q2xY', description: 'The last four characters of the key.' })
  last_four: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z' })
  created_at: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-11-22T08:30:00.000Z',
    description: 'When the key last authenticated a request, to the minute (updated at most once a minute); null if never.',
  })
  last_used_at: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
    description: 'When the key was revoked; null while active.',
  })
  revoked_at: string | null;
}

export class CreatedKeyDto extends KeyDto {
  @ApiProperty({
    example: 'svc_live_4eC39HqLyjWDarjtT1zdp7dcQ2xY8aBk',
    description: 'The full key, shown this once: only its hash is stored.',
  })
  key: string;
}

export function toKeyDto(key: ListedKey): KeyDto {
  return {
    id: key.id,
    type: key.type,
    mode: key.mode,
    prefix: key.prefix,
    last_four: key.lastFour,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}
