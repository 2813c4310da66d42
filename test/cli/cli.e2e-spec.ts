import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { hashApiKey } from '../../src/auth/api-key-format';
import { ApiKeyEntity } from '../../src/auth/entities/api-key.entity';
import { runCommand } from '../../src/cli/cli-commands';
import { ensureBuild } from '../support/server-process';
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

  it('project:create without --plan starts on free and says so on stderr, keeping stdout one JSON object', async () => {
    const { code, stdout, stderr } = await cli('project:create', '--name', 'No Plan Co', '--json');
    expect(code).toBe(0);
    const created = JSON.parse(stdout);
    expect(created).toMatchObject({ project_slug: 'no-plan-co', plan: 'free' });
    expect(stderr).toBe('note: no --plan given: the project starts on free; plan:set --project <slug> --plan <plan> changes it\n');
    const setup = await t.api.as(created.secret_key).get('/v1/setup-check').expect(200);
    expect(setup.body.data.plan).toBe('free');
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

  it('key:import keeps a legacy sk_live_ key working and stores only its hash', async () => {
    const existing = await t.seedProject({ slug: 'legacy-co' });
    const legacy = `sk_live_${'Imp0rted'.repeat(3)}`;
    const { code, stdout, stderr } = await cli('key:import', '--project', 'legacy-co', '--key', legacy, '--json');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const imported = JSON.parse(stdout);
    expect(imported).toEqual({ id: expect.stringMatching(/^key_/), type: 'secret' });
    expect((await t.api.as(legacy).get('/v1/setup-check').expect(200)).body.data.project_id).toBe(existing.project.id);
    const row = await t.db.manager.findOneByOrFail(ApiKeyEntity, { id: imported.id });
    expect(row).toMatchObject({ secretHash: hashApiKey(legacy), prefix: 'sk_live_', lastFour: legacy.slice(-4), mode: 'live' });
    expect(JSON.stringify(row)).not.toContain(legacy);

    expect(await cli('key:import', '--project', existing.project.id, '--key', legacy)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('already stored'),
    });
    for (const bad of ['svc_live_' + 'a'.repeat(32), 'sk_live_short', 'sk_live_' + 'a'.repeat(30) + '!!']) {
      expect(await cli('key:import', '--project', existing.project.id, '--key', bad)).toMatchObject({
        code: 1,
        stdout: '',
        stderr: expect.stringContaining('VALIDATION_ERROR'),
      });
    }
    expect(await cli('key:import', '--project', 'no-such-project', '--key', legacy)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('NOT_FOUND'),
    });
    expect(await cli('key:import', '--project', existing.project.id)).toMatchObject({ code: 2, stderr: expect.stringContaining('--key') });
  });

  it('project:list lists live projects with the contract fields', async () => {
    const existing = await t.seedProject({ slug: 'listed-co', plan: 'indie' });
    await cli('key:create', '--project', existing.project.id, '--type', 'secret', '--test');
    const { code, stdout } = await cli('project:list', '--json');
    expect(code).toBe(0);
    const { projects } = JSON.parse(stdout);
    expect(projects).toContainEqual({
      project_id: existing.project.id,
      project_slug: 'listed-co',
      project_name: 'Test project',
      plan: 'indie',
    });
    for (const project of projects) expect(Object.keys(project).sort()).toEqual(['plan', 'project_id', 'project_name', 'project_slug']);
    // The test-mode twin is not a project of its own to the operator.
    expect(projects.filter((project: { project_slug: string }) => project.project_slug.startsWith('test_'))).toEqual([]);
  });

  it('key:list shows every key of a project (live and test), never a full key', async () => {
    const existing = await t.seedProject({ slug: 'keyed-co' });
    const test = JSON.parse((await cli('key:create', '--project', 'keyed-co', '--type', 'secret', '--test', '--json')).stdout);
    await cli('key:revoke', '--key', existing.publishableKey);
    const { code, stdout } = await cli('key:list', '--project', 'keyed-co', '--json');
    expect(code).toBe(0);
    const { keys } = JSON.parse(stdout);
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(Object.keys(key).sort()).toEqual(['id', 'last_four', 'prefix', 'revoked', 'type']);
    expect(keys).toEqual(
      expect.arrayContaining([
        { id: test.id, type: 'secret', prefix: 'svc_test_', last_four: test.key.slice(-4), revoked: false },
        expect.objectContaining({ type: 'secret', prefix: 'svc_live_', last_four: existing.secretKey.slice(-4), revoked: false }),
        expect.objectContaining({ type: 'publishable', prefix: 'svc_pub_live_', revoked: true }),
      ]),
    );
    for (const full of [existing.secretKey, existing.publishableKey, test.key]) expect(stdout).not.toContain(full.slice(-12));
    expect(await cli('key:list', '--project', 'nope')).toMatchObject({ code: 1, stderr: expect.stringContaining('NOT_FOUND') });
  });

  it('accepts a slug wherever --project is', async () => {
    const existing = await t.seedProject({ slug: 'slugged-co' });
    expect(JSON.parse((await cli('plan:set', '--project', 'slugged-co', '--plan', 'builder', '--json')).stdout)).toEqual({
      project_id: existing.project.id,
      plan: 'builder',
    });
    const key = JSON.parse((await cli('key:create', '--project', 'slugged-co', '--type', 'secret', '--json')).stdout);
    expect((await t.api.as(key.key).get('/v1/setup-check').expect(200)).body.data).toMatchObject({
      project_id: existing.project.id,
      plan: 'builder',
    });
  });

  it('--help and help <command> print usage and exit 0', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const { code, stdout, stderr } = await cli(...argv);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      for (const name of ['project:create', 'project:list', 'key:import', 'key:list', 'key:revoke', 'waitlist:export']) {
        expect(stdout).toContain(name);
      }
    }
    for (const argv of [
      ['help', 'key:list'],
      ['key:list', '--help'],
    ]) {
      const { code, stdout } = await cli(...argv);
      expect(code).toBe(0);
      expect(stdout).toContain('key:list --project <prj_id|slug> [--json]');
      expect(stdout).toContain('never a full key');
    }
    expect(await cli('help', 'explode')).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown command "explode"') });
  });

  it('the built binary prints its help without a database', async () => {
    const dir = await ensureBuild();
    const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'cli.js'), 'help', 'key:import'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
    });
    expect(stdout).toContain('key:import --project <prj_id|slug> --key <sk_live_');
    const failed = await promisify(execFile)(process.execPath, [join(dir, 'cli.js'), 'explode']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown command') });
  }, 180_000); // may wait for the background build of this run
});
