import { ApiProperty } from '@nestjs/swagger';
import { PLAN_NAMES, type PlanName } from '../plans';

export class FeaturesEnabledDto {
  @ApiProperty() changelog: boolean;
  @ApiProperty() waitlist: boolean;
  @ApiProperty() feedback: boolean;
  @ApiProperty() notifications: boolean;
  @ApiProperty() email_notifications: boolean;
  @ApiProperty() custom_domain: boolean;
}

export class SetupLimitsDto {
  @ApiProperty({ type: Number, nullable: true, example: 25, description: 'Published entries left on this plan; null means unlimited.' })
  changelog_entries_remaining: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 1000, description: 'Most changelog subscribers; null means unlimited.' })
  subscribers_max: number | null;
}

export class PlanDetailsDto {
  @ApiProperty({ example: 'Free: changelog (25 published entries), waitlist, feedback and an in-app bell for small launches.' })
  description: string;

  @ApiProperty({ type: [String], example: ['email_notifications', 'webhooks'], description: 'Features this plan does not include.' })
  locked_features: string[];

  @ApiProperty({ type: String, format: 'uri', nullable: true, description: 'Where to upgrade; null on the highest plan.' })
  upgrade_url: string | null;

  @ApiProperty({ format: 'uri', example: 'https://launch.example.com/changelog/acme' })
  changelog_public_url: string;
}

export class SetupCheckDto {
  @ApiProperty({ example: 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  project_id: string;

  @ApiProperty({ example: 'acme' })
  project_slug: string;

  @ApiProperty({ example: 'Acme' })
  project_name: string;

  @ApiProperty({ enum: PLAN_NAMES })
  plan: PlanName;

  @ApiProperty({ type: FeaturesEnabledDto })
  features_enabled: FeaturesEnabledDto;

  @ApiProperty({ type: SetupLimitsDto })
  limits: SetupLimitsDto;

  @ApiProperty({ type: PlanDetailsDto })
  plan_details: PlanDetailsDto;
}

/** `meta` of a setup check: present only while identity verification is off. */
export const SETUP_CHECK_META = {
  identity_verification: { type: 'string', enum: ['off'], description: 'Present while identity verification is off.' },
  warnings: {
    type: 'array',
    items: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } }, required: ['code', 'message'] },
  },
};
