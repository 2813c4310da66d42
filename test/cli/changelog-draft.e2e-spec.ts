import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitsFromGitLog } from '../../src/changelog/drafts/drafts.cli';
import { ChangelogEntryEntity } from '../../src/changelog/entities/changelog-entry.entity';
import { runCommand } from '../../src/cli/cli-commands';
import { ensureBuild } from '../support/server-process';
import { TestApp } from '../support/test-app';

const GIT_LOG = [
  'a1b2c3d\tfeat(widget): add dark mode',
  'b2c3d4e\tfix: stop double emails',
  'c3d4e5f\tchore: bump deps',
  "d4e5f60\tMerge branch 'main' into dark-mode",
  '',
].join('\n');

describe('changelog:draft (CLI)', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await TestApp.start();
    dir = mkdtempSync(join(tmpdir(), 'changelog-draft-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCommand(t.app, argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
    return { code, stdout, stderr };
  }

  function logFile(text: string): string {
    const file = join(dir, `log-${Math.random().toString(36).slice(2)}.txt`);
    writeFileSync(file, text);
    return file;
  }

  const entriesOf = (projectId: string) => t.db.manager.find(ChangelogEntryEntity, { where: { projectId } });

  it('creates a draft entry from git log lines and prints its id and markdown', async () => {
    const { project } = await t.seedProject({ slug: 'cli-drafts' });
    const { code, stdout, stderr } = await cli(
      'changelog:draft',
      '--project',
      'cli-drafts',
      '--version',
      '2.0.0',
      '--file',
      logFile(GIT_LOG),
      '--json',
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const printed = JSON.parse(stdout);
    expect(printed).toEqual({
      entry_id: expect.stringMatching(/^ce_[0-9A-HJKMNP-TV-Z]{26}$/),
      title: 'Version 2.0.0',
      category: 'feature',
      skipped: 2,
      body_markdown: '## New\n\n- **widget:** add dark mode (`a1b2c3d`)\n\n## Fixed\n\n- stop double emails (`b2c3d4e`)',
    });
    const rows = await entriesOf(project.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: printed.entry_id,
      status: 'draft',
      version: '2.0.0',
      publishedAt: null,
      bodyMarkdown: printed.body_markdown,
    });
  });

  it('--dry-run prints the draft and creates nothing; text output puts the markdown on its own lines', async () => {
    const { project } = await t.seedProject();
    const { code, stdout } = await cli('changelog:draft', '--project', project.id, '--dry-run', '--file', logFile(GIT_LOG));
    expect(code).toBe(0);
    expect(stdout).toContain('entry_id: null\n');
    expect(stdout).toContain('body_markdown: \n## New\n\n- **widget:** add dark mode');
    expect(await entriesOf(project.id)).toEqual([]);
  });

  it('reads NUL-separated whole messages with their footers', async () => {
    const { project } = await t.seedProject();
    const log = 'e5f6071\trefactor: one loader\n\nBREAKING CHANGE: config.yml moved\n\0\nf607182\tdocs: readme\n\0\n';
    const { code, stdout } = await cli('changelog:draft', '--project', project.id, '--dry-run', '--file', logFile(log), '--json');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      category: 'breaking',
      skipped: 1,
      body_markdown: '## Breaking changes\n\n- one loader (`e5f6071`) — config.yml moved',
    });
  });

  it('fails with the API error when nothing is left to draft, and on unknown projects or empty input', async () => {
    const { project } = await t.seedProject();
    expect(await cli('changelog:draft', '--project', project.id, '--file', logFile('chore: x\nv1.0.0\n'))).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('VALIDATION_ERROR: Nothing to draft'),
    });
    expect(await cli('changelog:draft', '--project', 'nope', '--file', logFile(GIT_LOG))).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('NOT_FOUND'),
    });
    expect(await cli('changelog:draft', '--project', project.id, '--file', logFile('\n\n'))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no commits'),
    });
    expect(await cli('changelog:draft', '--file', logFile(GIT_LOG))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--project is required'),
    });
    expect(await entriesOf(project.id)).toEqual([]);
  });

  it('the built binary reads git log from stdin', async () => {
    const { project } = await t.seedProject();
    const build = await ensureBuild();
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = execFile(
        process.execPath,
        [join(build, 'cli.js'), 'changelog:draft', '--project', project.id, '--json'],
        { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DATABASE_URL: t.config.databaseUrl ?? '' } },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      );
      child.stdin?.end(GIT_LOG);
    });
    const printed = JSON.parse(stdout);
    expect(printed).toMatchObject({ entry_id: expect.stringMatching(/^ce_/), category: 'feature' });
    expect((await entriesOf(project.id)).map((row) => row.id)).toEqual([printed.entry_id]);
  }, 180_000); // may wait for the background build of this run
});

describe('commitsFromGitLog', () => {
  it('splits lines, or NUL-terminated records when there are any, and drops blanks', () => {
    expect(commitsFromGitLog('feat: a\r\n\n  fix: b  \n')).toEqual(['feat: a', 'fix: b']);
    expect(commitsFromGitLog('feat: a\n\nbody\n\0\nfix: b\n\0\n')).toEqual(['feat: a\n\nbody', 'fix: b']);
  });
});
