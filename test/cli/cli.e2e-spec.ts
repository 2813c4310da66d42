import { runCommand } from '../../src/cli/cli-commands';
import { TestApp } from '../support/test-app';

describe('operator CLI', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCommand(t.app, argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
    return { code, stdout, stderr };
  }

  it('project:create prints one JSON object with working keys', async () => {
    const { code, stdout, stderr } = await cli('project:create', '--name', 'CLI Co', '--plan', 'indie', '--json');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const created = JSON.parse(stdout);
    expect(Object.keys(created).sort()).toEqual(['plan', 'project_id', 'project_name', 'project_slug', 'publishable_key', 'secret_key']);
    expect(created).toMatchObject({ project_name: 'CLI Co', project_slug: 'cli-co', plan: 'indie' });
    const setup = await t.api.as(created.secret_key).get('/v1/setup-check').expect(200);
    expect(setup.body.data).toMatchObject({ project_id: created.project_id, plan: 'indie' });
  });

  it('project:create --legacy-notifications starts with identity verification off', async () => {
    const created = JSON.parse(
      (await cli('project:create', '--name', 'Legacy', '--plan', 'free', '--legacy-notifications', '--json')).stdout,
    );
    const setup = await t.api.as(created.secret_key).get('/v1/setup-check').expect(200);
    expect(setup.body.meta.identity_verification).toBe('off');
  });

  it('project:create refuses bad and taken slugs and unknown plans', async () => {
    await t.seedProject({ slug: 'taken-slug' });
    expect(await cli('project:create', '--name', 'X', '--plan', 'free', '--slug', 'Bad Slug', '--json')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('INVALID_SLUG'),
    });
    expect(await cli('project:create', '--name', 'X', '--plan', 'free', '--slug', 'taken-slug')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('SLUG_TAKEN'),
    });
    expect(await cli('project:create', '--name', 'X', '--plan', 'gold')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--plan'),
    });
    expect(await cli('project:create', '--plan', 'free')).toMatchObject({ code: 2, stderr: expect.stringContaining('--name is required') });
  });

  it('plan:set changes the plan', async () => {
    const existing = await t.seedProject();
    const { code, stdout } = await cli('plan:set', '--project', existing.project.id, '--plan', 'builder', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ project_id: existing.project.id, plan: 'builder' });
    expect((await t.api.as(existing.secretKey).get('/v1/setup-check').expect(200)).body.data.plan).toBe('builder');
    expect(await cli('plan:set', '--project', 'prj_nope', '--plan', 'free')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('NOT_FOUND'),
    });
  });

  it('key:create and key:revoke manage keys', async () => {
    const existing = await t.seedProject();
    const created = JSON.parse((await cli('key:create', '--project', existing.project.id, '--type', 'secret', '--test', '--json')).stdout);
    expect(created).toEqual({
      id: expect.stringMatching(/^key_/),
      key: expect.stringMatching(/^svc_test_[0-9A-Za-z]{32}$/),
      type: 'secret',
    });
    await t.api.as(created.key).get('/v1/setup-check').expect(200);
    const publishable = JSON.parse((await cli('key:create', '--project', existing.project.id, '--type', 'publishable', '--json')).stdout);
    expect(publishable.key).toMatch(/^svc_pub_live_/);
    const revoked = JSON.parse((await cli('key:revoke', '--key', created.key, '--json')).stdout);
    expect(revoked).toEqual({ id: created.id, revoked: true });
    expect((await t.api.as(created.key).get('/v1/setup-check').expect(401)).body.error.code).toBe('REVOKED_API_KEY');
    expect(await cli('key:create', '--project', existing.project.id, '--type', 'admin')).toMatchObject({ code: 2 });
    expect(await cli('key:revoke', '--key', 'svc_live_unknown')).toMatchObject({ code: 1 });
  });

  it('migrate reports what ran at start, and unknown commands print the usage', async () => {
    const migrate = await cli('migrate', '--json');
    expect(migrate.code).toBe(0);
    expect(JSON.parse(migrate.stdout)).toEqual({ applied: expect.any(Array) });
    const unknown = await cli('explode');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Usage: npm run cli -- <command>');
    expect(await cli('project:create', '--bogus')).toMatchObject({ code: 2 });
  });
});
