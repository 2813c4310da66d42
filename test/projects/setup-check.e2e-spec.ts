import { PlanUsage } from '../../src/projects/plan-usage.service';
import { ProjectsService } from '../../src/projects/projects.service';
import { ProbeModule } from '../support/probe.module';
import { TestApp } from '../support/test-app';

// One app for the file; every test seeds the projects it reads.
let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({ imports: [ProbeModule] });
});
afterAll(() => t.close());

describe('GET /v1/setup-check', () => {
  it('describes a Free project exactly', async () => {
    const { project, secretKey } = await t.seedProject({ plan: 'free', name: 'Acme Free', slug: 'acme-free' });
    const res = await t.api.as(secretKey).get('/v1/setup-check').expect(200);
    expect(res.body).toEqual({
      data: {
        project_id: project.id,
        project_slug: 'acme-free',
        project_name: 'Acme Free',
        plan: 'free',
        features_enabled: {
          changelog: true,
          waitlist: true,
          feedback: true,
          notifications: true,
          email_notifications: false,
          custom_domain: false,
          revenue: false,
          attribution: false,
        },
        limits: { changelog_entries_remaining: 25, subscribers_max: 1000 },
        plan_details: {
          description: expect.stringContaining('Free'),
          locked_features: [
            'email_notifications',
            'custom_domain',
            'announcements',
            'segment_audience',
            'entry_insights',
            'after_reading',
            'webhooks',
            'waitlist_invites',
            'waitlist_resend_confirmation',
            'unbranded_widget',
            'revenue',
            'attribution',
          ],
          upgrade_url: `https://launch.test/dashboard/billing?project=${project.id}&plan=indie`,
          changelog_public_url: 'https://launch.test/changelog/acme-free',
        },
      },
      error: null,
    });
  });

  it('uses null for unlimited and lists fewer locked features on higher plans', async () => {
    const indie = await t.seedProject({ plan: 'indie' });
    const builder = await t.seedProject({ plan: 'builder' });
    const scale = await t.seedProject({ plan: 'scale' });
    const indieCheck = (await t.api.as(indie.secretKey).get('/v1/setup-check').expect(200)).body.data;
    expect(indieCheck.limits).toEqual({ changelog_entries_remaining: null, subscribers_max: 10000 });
    expect(indieCheck.features_enabled.email_notifications).toBe(true);
    expect(indieCheck.plan_details.locked_features).toEqual(['custom_domain', 'segment_audience', 'after_reading', 'attribution']);
    expect(indieCheck.plan_details.upgrade_url).toContain('plan=builder');
    const builderCheck = (await t.api.as(builder.secretKey).get('/v1/setup-check').expect(200)).body.data;
    expect(builderCheck.limits).toEqual({ changelog_entries_remaining: null, subscribers_max: null });
    expect(builderCheck.plan_details).toMatchObject({ locked_features: [], upgrade_url: null });
    // In the plan, but this server has no CUSTOM_DOMAIN_CNAME_TARGET: not served here.
    expect(builderCheck.features_enabled.custom_domain).toBe(false);
    const scaleCheck = (await t.api.as(scale.secretKey).get('/v1/setup-check').expect(200)).body.data;
    expect(scaleCheck.plan).toBe('scale');
  });

  it('counts published entries against the Free cap', async () => {
    const { project, secretKey } = await t.seedProject({ plan: 'free' });
    t.get(PlanUsage).registerCounter('changelogPublishedEntries', async (projectId) => (projectId === project.id ? 7 : 0));
    const res = await t.api.as(secretKey).get('/v1/setup-check').expect(200);
    expect(res.body.data.limits.changelog_entries_remaining).toBe(18);
  });

  it('warns in meta while identity verification is off', async () => {
    const legacy = await t.seedProject({ legacyNotifications: true });
    const res = await t.api.as(legacy.secretKey).get('/v1/setup-check').expect(200);
    expect(res.body.meta).toEqual({
      identity_verification: 'off',
      warnings: [{ code: 'IDENTITY_VERIFICATION_OFF', message: expect.stringContaining('require_user_hash') }],
    });
    const modern = await t.seedProject();
    expect((await t.api.as(modern.secretKey).get('/v1/setup-check').expect(200)).body.meta).toBeUndefined();
  });

  it('reflects a plan change at once', async () => {
    const { project, secretKey } = await t.seedProject({ plan: 'free' });
    await t.api.as(secretKey).get('/v1/setup-check').expect(200);
    await t.get(ProjectsService).setPlan(project.id, 'builder');
    expect((await t.api.as(secretKey).get('/v1/setup-check').expect(200)).body.data.plan).toBe('builder');
  });
});

describe('plan gates', () => {
  it('answers PLAN_UPGRADE_REQUIRED below the plan of a feature', async () => {
    const free = await t.seedProject({ plan: 'free' });
    const indie = await t.seedProject({ plan: 'indie' });
    const res = await t.api.as(free.secretKey).post('/v1/_probe/gated').expect(403);
    expect(res.body.error).toMatchObject({ code: 'PLAN_UPGRADE_REQUIRED', message: expect.stringContaining('indie') });
    await t.api.as(indie.secretKey).post('/v1/_probe/gated').expect(200);
  });

  it('answers PLAN_LIMIT_REACHED past a counted limit', async () => {
    const free = await t.seedProject({ plan: 'free' });
    const usage = t.get(PlanUsage);
    // Counted for this project only: the app is shared by the other tests of the file.
    usage.registerCounter('changelogPublishedEntries', async (projectId) => (projectId === free.project.id ? 25 : 0));
    await expect(usage.assertWithinLimit(free.project, 'changelogPublishedEntries', 1, 'published entries')).rejects.toMatchObject({
      code: 'PLAN_LIMIT_REACHED',
    });
  });
});

describe('GET /v1/_health', () => {
  it('needs no key and checks the database', async () => {
    const res = await t.api.get('/v1/_health').expect(200);
    expect(res.body).toEqual({ data: { status: 'ok', database: 'ok' }, error: null });
  });
});
