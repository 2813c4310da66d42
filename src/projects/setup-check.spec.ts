import { loadConfig } from '../config/app-config';
import type { SetupCheckDto } from './dto/setup-check.dto';
import type { PlanName } from './plans';
import type { ProjectRef } from './project-ref';
import { setupCheckOf } from './setup-check.service';

function project(plan: PlanName): ProjectRef {
  return {
    id: 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
    accountId: null,
    slug: 'acme',
    name: 'Acme',
    plan,
    settings: { require_user_hash: true } as ProjectRef['settings'],
    createdAt: new Date('2026-11-01T00:00:00Z'),
    mode: 'live',
    liveProjectId: null,
  };
}

function featuresOf(env: Record<string, string>, plan: PlanName): SetupCheckDto {
  return setupCheckOf(loadConfig({ PUBLIC_BASE_URL: 'https://launch.test', ...env }), project(plan), null) as SetupCheckDto;
}

describe('setupCheckOf features_enabled', () => {
  it('reports custom domains only when the plan has them and the server is set up for them', () => {
    const unconfigured = featuresOf({}, 'builder');
    expect(unconfigured.features_enabled.custom_domain).toBe(false);
    // What the plan lacks is a separate question: Builder lacks nothing.
    expect(unconfigured.plan_details.locked_features).toEqual([]);
    expect(featuresOf({ CUSTOM_DOMAIN_CNAME_TARGET: 'domains.launch.test' }, 'builder').features_enabled.custom_domain).toBe(true);
    expect(featuresOf({ CUSTOM_DOMAIN_CNAME_TARGET: 'domains.launch.test' }, 'indie').features_enabled.custom_domain).toBe(false);
  });

  it('reports the features this build serves, following the plan', () => {
    expect(featuresOf({}, 'free').features_enabled).toEqual({
      changelog: true,
      waitlist: true,
      feedback: true,
      notifications: true,
      email_notifications: false,
      custom_domain: false,
      revenue: false,
      attribution: false,
    });
    expect(featuresOf({}, 'indie').features_enabled.email_notifications).toBe(true);
    expect(featuresOf({}, 'indie').features_enabled.revenue).toBe(true);
    expect(featuresOf({}, 'builder').features_enabled.attribution).toBe(true);
  });
});
