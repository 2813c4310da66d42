import { ApiProperty } from '@nestjs/swagger';
import { PLAN_NAMES, type PlanName } from '../plans';

/** What the project can use on this server: included in its plan and served here; one boolean each (spec: Setup check). */
export class FeaturesEnabledDto {
  @ApiProperty({
    example: true,
    description: 'Changelog entries, the public changelog (JSON, pages, feeds) and the widget API (every plan).',
  })
  changelog: boolean;

  @ApiProperty({ example: true, description: 'Waitlist signups, referrals and stats (every plan).' })
  waitlist: boolean;

  @ApiProperty({ example: true, description: 'Feedback collection and classification (every plan).' })
  feedback: boolean;

  @ApiProperty({
    example: true,
    description: 'In-app notifications: sending and the bell API (every plan). The browser script is not served by this version.',
  })
  notifications: boolean;

  @ApiProperty({
    example: false,
    description: 'Emails to changelog subscribers (Indie and up); they leave the server once it has SMTP_URL.',
  })
  email_notifications: boolean;

  @ApiProperty({
    example: false,
    description: 'The public changelog on a hostname of your own (Builder and up), once the server has CUSTOM_DOMAIN_CNAME_TARGET set.',
  })
  custom_domain: boolean;

  @ApiProperty({
    example: true,
    description: 'Read-only revenue figures from a connected payment processor: /v1/revenue and its connection (Indie and up).',
  })
  revenue: boolean;

  @ApiProperty({
    example: false,
    description: 'GET /v1/analytics/attribution: signups followed to payment by UTM field, referrer, channel or referral (Builder and up).',
  })
  attribution: boolean;
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

  @ApiProperty({ enum: PLAN_NAMES, example: 'free', description: "The project's plan." })
  plan: PlanName;

  @ApiProperty({ type: FeaturesEnabledDto, description: 'Which features the project can use here: in its plan and served by this server.' })
  features_enabled: FeaturesEnabledDto;

  @ApiProperty({ type: SetupLimitsDto, description: 'What is left of the counted limits of the plan.' })
  limits: SetupLimitsDto;

  @ApiProperty({ type: PlanDetailsDto, description: 'The plan in words, what it lacks and where to upgrade.' })
  plan_details: PlanDetailsDto;
}

/** The warning of a project whose identity verification is off. */
export const IDENTITY_VERIFICATION_WARNING = {
  code: 'IDENTITY_VERIFICATION_OFF',
  message:
    'Identity verification is off: bell reads are answered without user_hash. Create a signing secret and switch require_user_hash on (PATCH /v1/notifications/settings).',
} as const;

/** `meta` of a setup check: present only while identity verification is off, or for a test key. */
export const SETUP_CHECK_META = {
  mode: {
    type: 'string',
    enum: ['test'],
    description: 'Present when the key is a svc_test_ key: the project is the test-mode twin, whose data is separate.',
  },
  live_project_id: {
    type: 'string',
    example: 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
    description: 'With mode test: the live project this test-mode project belongs to.',
  },
  identity_verification: { type: 'string', enum: ['off'], description: 'Present while identity verification is off.' },
  warnings: {
    type: 'array',
    items: {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' } },
      required: ['code', 'message'],
      example: IDENTITY_VERIFICATION_WARNING,
    },
  },
};
