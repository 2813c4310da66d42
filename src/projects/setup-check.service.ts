import { Inject, Injectable } from '@nestjs/common';
import { WithMeta } from '../common/http/reply';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { IDENTITY_VERIFICATION_WARNING, SetupCheckDto } from './dto/setup-check.dto';
import { PlanUsage } from './plan-usage.service';
import { FEATURES, PLANS, planAllows, planLimit } from './plans';
import { changelogPublicUrl, upgradeUrl } from './project-links';
import type { ProjectRef } from './project-ref';

/** Warnings go in `meta`, so `data` keeps exactly the shape of the spec. */
export function identityVerificationMeta(project: ProjectRef): Record<string, unknown> | null {
  if (project.settings.require_user_hash) return null;
  return { identity_verification: 'off', warnings: [IDENTITY_VERIFICATION_WARNING] };
}

/** A test-mode project says so, and names the live project whose data it never sees. */
function testModeMeta(project: ProjectRef): Record<string, unknown> | null {
  return project.mode === 'test' ? { mode: 'test', live_project_id: project.liveProjectId } : null;
}

/**
 * The setup check of a project (spec: Setup check); warnings go in `meta`. `features_enabled` says
 * what the project can use on this server: its plan includes the feature and this build serves it.
 * Each flag names API routes that exist here (the browser scripts `/v1/changelog.js` and
 * `/v1/notifications.js` are not served and no flag stands for them). Custom domains also need the
 * operator's CUSTOM_DOMAIN_CNAME_TARGET: without it their routes answer 503, so the flag is false.
 * `locked_features` stays what the plan lacks, whatever the server's configuration.
 */
export function setupCheckOf(
  config: AppConfig,
  project: ProjectRef,
  changelogEntriesRemaining: number | null,
): SetupCheckDto | WithMeta<SetupCheckDto> {
  const plan = project.plan;
  const check: SetupCheckDto = {
    project_id: project.id,
    project_slug: project.slug,
    project_name: project.name,
    plan,
    features_enabled: {
      changelog: planAllows(plan, 'changelog'),
      waitlist: planAllows(plan, 'waitlist'),
      feedback: planAllows(plan, 'feedback'),
      notifications: planAllows(plan, 'notifications'),
      email_notifications: planAllows(plan, 'email_notifications'),
      custom_domain: planAllows(plan, 'custom_domain') && config.customDomains !== null,
      revenue: planAllows(plan, 'revenue'),
      attribution: planAllows(plan, 'attribution'),
    },
    limits: {
      changelog_entries_remaining: changelogEntriesRemaining,
      subscribers_max: planLimit(plan, 'subscribers'),
    },
    plan_details: {
      description: PLANS[plan].description,
      locked_features: FEATURES.filter((feature) => !planAllows(plan, feature)),
      upgrade_url: upgradeUrl(config, project),
      changelog_public_url: changelogPublicUrl(config, project),
    },
  };
  const meta = { ...identityVerificationMeta(project), ...testModeMeta(project) };
  return Object.keys(meta).length > 0 ? new WithMeta(check, meta) : check;
}

@Injectable()
export class SetupCheckService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly usage: PlanUsage,
  ) {}

  async setupCheck(project: ProjectRef): Promise<SetupCheckDto | WithMeta<SetupCheckDto>> {
    return setupCheckOf(this.config, project, await this.usage.remaining(project, 'changelogPublishedEntries'));
  }
}
