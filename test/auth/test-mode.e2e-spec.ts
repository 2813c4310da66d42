import { ApiKeysService } from '../../src/auth/api-keys.service';
import { ProjectEntity } from '../../src/projects/entities/project.entity';
import { ProjectsService } from '../../src/projects/projects.service';
import { TestApp } from '../support/test-app';

/**
 * Test mode: svc_test_ keys belong to the live project's test-mode twin, a project of its own, so
 * nothing written with a test key reaches live data and nothing live is visible to a test key.
 */
describe('test-mode keys', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  async function testKeys(projectId: string): Promise<{ secret: string; publishable: string }> {
    const keys = t.get(ApiKeysService);
    const secret = await t.db.transaction((em) => keys.createKey(em, projectId, 'secret', 'test'));
    const publishable = await t.db.transaction((em) => keys.createKey(em, projectId, 'publishable', 'test'));
    return { secret: secret.key, publishable: publishable.key };
  }

  it('keeps a signup made with a test key out of the live project, and the other way round', async () => {
    const live = await t.seedProject({ plan: 'indie' });
    const test = await testKeys(live.project.id);
    expect(test.publishable).toMatch(/^svc_pub_test_[0-9A-Za-z]{32}$/);
    await t.api.as(test.publishable).post('/v1/waitlist/signups').send({ email: 'tester@x.io' }).expect(201);
    await t.api.as(live.publishableKey).post('/v1/waitlist/signups').send({ email: 'real@x.io' }).expect(201);

    const liveList = await t.api.as(live.secretKey).get('/v1/waitlist/signups').expect(200);
    expect(liveList.body.data.map((signup: { email: string }) => signup.email)).toEqual(['real@x.io']);
    const testList = await t.api.as(test.secret).get('/v1/waitlist/signups').expect(200);
    expect(testList.body.data.map((signup: { email: string }) => signup.email)).toEqual(['tester@x.io']);
    // The same email is a new person in the other mode, with its own position.
    const again = await t.api.as(test.publishable).post('/v1/waitlist/signups').send({ email: 'real@x.io' }).expect(201);
    expect(again.body.data.position).toBe(2);
  });

  it('shows the mode on the setup check: a twin of its own, linked to the live project', async () => {
    const live = await t.seedProject({ plan: 'builder', name: 'Acme' });
    const test = await testKeys(live.project.id);
    const res = await t.api.as(test.secret).get('/v1/setup-check').expect(200);
    expect(res.body.data).toMatchObject({ project_name: 'Acme', plan: 'builder' });
    expect(res.body.data.project_id).not.toBe(live.project.id);
    expect(res.body.meta).toEqual({ mode: 'test', live_project_id: live.project.id });
    expect((await t.api.as(live.secretKey).get('/v1/setup-check').expect(200)).body.meta).toBeUndefined();
  });

  it('gives a project one twin, whatever the number of test keys, and it follows the plan', async () => {
    const live = await t.seedProject({ plan: 'free' });
    const first = await testKeys(live.project.id);
    await testKeys(live.project.id);
    const twins = await t.db.manager.find(ProjectEntity, { where: { liveProjectId: live.project.id } });
    expect(twins).toHaveLength(1);
    await t.get(ProjectsService).setPlan(live.project.id, 'indie');
    expect((await t.api.as(first.secret).get('/v1/setup-check').expect(200)).body.data.plan).toBe('indie');
  });

  it('refuses live keys on a twin and plan changes of a twin', async () => {
    const live = await t.seedProject();
    await testKeys(live.project.id);
    const twin = await t.db.manager.findOneByOrFail(ProjectEntity, { liveProjectId: live.project.id });
    await expect(t.db.transaction((em) => t.get(ApiKeysService).createKey(em, twin.id, 'secret'))).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      param: 'project',
    });
    await expect(t.get(ProjectsService).setPlan(twin.id, 'builder')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
