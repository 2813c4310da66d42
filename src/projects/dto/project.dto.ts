import { ApiProperty } from '@nestjs/swagger';
import { PLAN_NAMES, type PlanName } from '../plans';

export class ProjectDto {
  @ApiProperty({ example: 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', pattern: '^prj_[0-9A-HJKMNP-TV-Z]{26}$' })
  id: string;

  @ApiProperty({ example: 'acme', pattern: '^[a-z0-9-]{1,40}$' })
  slug: string;

  @ApiProperty({ example: 'Acme' })
  name: string;

  @ApiProperty({ enum: PLAN_NAMES, example: 'free' })
  plan: PlanName;

  @ApiProperty({ format: 'uri', example: 'https://launch.example.com/changelog/acme' })
  changelog_public_url: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z', description: 'When the project was created.' })
  created_at: string;
}
