import { ChangelogEntryEntity } from '../../src/changelog/entities/changelog-entry.entity';
import { findUnsafeMarkdownLinks } from '../../src/common/markdown/markdown-links';
import { EventEntity } from '../../src/events/entities/event.entity';
import { TestApp } from '../support/test-app';

const COMMITS = [
  'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678\tfeat(widget): add dark mode',
  'fix: stop double emails',
  'perf: cache the public feed',
  'feat(api)!: drop the v0 routes',
  'fix(security): escape entry titles',
  'chore: bump deps',
  'docs: typo',
  'Merge pull request #7 from acme/dark-mode',
  'Revert "feat: confetti"',
  'v1.3.9',
  'Tidy the settings page',
];

describe('POST /v1/changelog/drafts', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  const entriesOf = (projectId: string) => t.db.manager.find(ChangelogEntryEntity, { where: { projectId } });

  it('on a dry run answers 200 with the sorted draft and creates nothing', async () => {
    const { project, secretKey } = await t.seedProject();
    const res = await t.api
      .as(secretKey)
      .post('/v1/changelog/drafts')
      .send({ commits: COMMITS, version: 'v1.4.0', dry_run: true })
      .expect(200);
    expect(res.body.error).toBeNull();
    const draft = res.body.data;
    expect(draft.entry).toBeNull();
    expect(draft.title).toBe('Version 1.4.0');
    expect(draft.category).toBe('breaking');
    expect(draft.skipped).toBe(5);
    expect(draft.skipped_by_kind).toEqual({ housekeeping: 2, merges: 1, reverts: 1, version_bumps: 1 });
    expect(draft.sections).toEqual([
      { title: 'Breaking changes', items: [{ subject: 'drop the v0 routes', scope: 'api', type: 'feat', breaking: true, note: null }] },
      { title: 'Security', items: [{ subject: 'escape entry titles', scope: 'security', type: 'fix', breaking: false, note: null }] },
      { title: 'New', items: [{ subject: 'add dark mode', scope: 'widget', type: 'feat', breaking: false, note: null, hash: 'a1b2c3d' }] },
      { title: 'Improved', items: [{ subject: 'cache the public feed', scope: null, type: 'perf', breaking: false, note: null }] },
      { title: 'Fixed', items: [{ subject: 'stop double emails', scope: null, type: 'fix', breaking: false, note: null }] },
      { title: 'Other changes', items: [{ subject: 'Tidy the settings page', scope: null, type: null, breaking: false, note: null }] },
    ]);
    expect(draft.body_markdown).toBe(
      [
        '## Breaking changes\n\n- **api:** drop the v0 routes',
        '## Security\n\n- **security:** escape entry titles',
        '## New\n\n- **widget:** add dark mode (`a1b2c3d`)',
        '## Improved\n\n- cache the public feed',
        '## Fixed\n\n- stop double emails',
        '## Other changes\n\n- Tidy the settings page',
      ].join('\n\n'),
    );
    expect(await entriesOf(project.id)).toEqual([]);
  });

  it('creates a draft entry that is not published, announced or counted, and answers 201 with its owner view', async () => {
    const { project, secretKey } = await t.seedProject({ slug: 'drafty' });
    const res = await t.api.as(secretKey).post('/v1/changelog/drafts').send({ commits: COMMITS, version: '1.4.0' }).expect(201);
    const { entry, ...draft } = res.body.data;
    expect(Object.keys(entry).sort()).toEqual(
      [
        'body_markdown',
        'category',
        'created_at',
        'id',
        'project_id',
        'public_url',
        'published_at',
        'scheduled_at',
        'status',
        'title',
        'updated_at',
        'version',
      ].sort(),
    );
    expect(entry).toMatchObject({
      id: expect.stringMatching(/^ce_[0-9A-HJKMNP-TV-Z]{26}$/),
      project_id: project.id,
      title: 'Version 1.4.0',
      body_markdown: draft.body_markdown,
      version: '1.4.0',
      category: 'breaking',
      status: 'draft',
      scheduled_at: null,
      published_at: null,
      public_url: `https://launch.test/changelog/drafty/${entry.id}`,
    });
    expect(entry.created_at).toBe(entry.updated_at);
    const rows = await entriesOf(project.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: entry.id,
      status: 'draft',
      publishedAt: null,
      audience: 'public',
      pinned: false,
      announcementStyle: null,
      notifySubscribers: false,
      notifyInApp: false,
      bodyMarkdown: draft.body_markdown,
    });
    expect(await t.db.manager.count(EventEntity, { where: { projectId: project.id } })).toBe(0);
    // Drafts do not count toward the Free entry cap.
    const setup = await t.api.as(secretKey).get('/v1/setup-check').expect(200);
    expect(setup.body.data.limits.changelog_entries_remaining).toBe(25);
  });

  it('titles a draft without a version by the date and stores no version', async () => {
    const { project, secretKey } = await t.seedProject();
    t.clock.freeze('2026-11-20T23:59:00.000Z');
    try {
      const res = await t.api
        .as(secretKey)
        .post('/v1/changelog/drafts')
        .send({ commits: ['feat: export to CSV'] })
        .expect(201);
      expect(res.body.data).toMatchObject({ title: 'Release notes 2026-11-20', category: 'feature' });
      expect(res.body.data.entry).toMatchObject({ version: null, created_at: '2026-11-20T23:59:00.000Z' });
      expect((await entriesOf(project.id))[0].createdAt.toISOString()).toBe('2026-11-20T23:59:00.000Z');
    } finally {
      t.clock.reset();
    }
  });

  it('reads whole messages with BREAKING CHANGE footers', async () => {
    const { secretKey } = await t.seedProject();
    const message = 'refactor(config): one loader\n\nSimpler.\n\nBREAKING-CHANGE: config.yml moved to config/app.yml';
    const res = await t.api
      .as(secretKey)
      .post('/v1/changelog/drafts')
      .send({ commits: [message], dry_run: true })
      .expect(200);
    expect(res.body.data.sections).toEqual([
      {
        title: 'Breaking changes',
        items: [{ subject: 'one loader', scope: 'config', type: 'refactor', breaking: true, note: 'config.yml moved to config/app.yml' }],
      },
    ]);
    expect(res.body.data.body_markdown).toBe('## Breaking changes\n\n- **config:** one loader — config.yml moved to config/app.yml');
  });

  it('stores commit text that looks like links or HTML as escaped plain text', async () => {
    const { project, secretKey } = await t.seedProject();
    const commits = ['feat: [click me](javascript:alert(1))', 'fix(<b>x</b>): ![p](data:image/png;base64,AA) <script>alert(1)</script>'];
    const res = await t.api.as(secretKey).post('/v1/changelog/drafts').send({ commits }).expect(201);
    const body = (await entriesOf(project.id))[0].bodyMarkdown;
    expect(body).toBe(res.body.data.body_markdown);
    expect(findUnsafeMarkdownLinks(body)).toEqual([]);
    expect(body).toContain('\\[click me\\](javascript:alert(1))');
    expect(body).toContain('**\\<b\\>x\\</b\\>:** !\\[p\\](data:image/png;base64,AA) \\<script\\>alert(1)\\</script\\>');
    expect(res.body.data.sections[0].items[0].subject).toBe('[click me](javascript:alert(1))');
  });

  it('accepts an Idempotency-Key: a replay answers the first draft (201) or dry run (200) and creates nothing more', async () => {
    const { project, secretKey } = await t.seedProject();
    const post = (body: Record<string, unknown>, key: string) =>
      t.api.as(secretKey).post('/v1/changelog/drafts').set('Idempotency-Key', key).send(body);
    const created = await post({ commits: COMMITS }, 'draft-once').expect(201);
    const replayed = await post({ commits: COMMITS }, 'draft-once').expect(201);
    expect(replayed.body).toEqual(created.body);
    expect(await entriesOf(project.id)).toHaveLength(1);
    const dry = await post({ commits: COMMITS, dry_run: true }, 'dry-once').expect(200);
    expect((await post({ commits: COMMITS, dry_run: true }, 'dry-once').expect(200)).body).toEqual(dry.body);
    expect((await post({ commits: ['feat: other'] }, 'draft-once').expect(409)).body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await entriesOf(project.id)).toHaveLength(1);
  });

  it('answers a dry run when every commit is skipped, and refuses to create an empty draft', async () => {
    const { project, secretKey } = await t.seedProject();
    const commits = ['chore: x', "Merge branch 'main'", '2.0.0'];
    const dry = await t.api.as(secretKey).post('/v1/changelog/drafts').send({ commits, dry_run: true }).expect(200);
    expect(dry.body.data).toMatchObject({
      entry: null,
      sections: [],
      body_markdown: '',
      skipped: 3,
      skipped_by_kind: { housekeeping: 1, merges: 1, reverts: 0, version_bumps: 1 },
    });
    const res = await t.api.as(secretKey).post('/v1/changelog/drafts').send({ commits }).expect(400);
    expect(res.body).toMatchObject({
      data: null,
      error: {
        code: 'VALIDATION_ERROR',
        param: 'commits',
        message: expect.stringContaining('Nothing to draft'),
        remediation: expect.stringContaining('dry_run'),
      },
    });
    expect(await entriesOf(project.id)).toEqual([]);
  });

  it.each([
    ['no commits', 'commits', {}],
    ['commits as a string', 'commits', { commits: 'feat: x' }],
    ['an empty list', 'commits', { commits: [] }],
    ['1001 commits', 'commits', { commits: Array.from({ length: 1001 }, (_, i) => `feat: ${i}`) }],
    ['a number among the commits', 'commits.3', { commits: ['feat: a', 'fix: b', 'ok', 42] }],
    ['an empty commit', 'commits.1', { commits: ['feat: a', ''] }],
    ['a blank commit', 'commits.1', { commits: ['feat: a', '  \n '] }],
    ['a commit of 10001 characters', 'commits.0', { commits: ['x'.repeat(10_001)] }],
    ['an empty version', 'version', { commits: ['feat: a'], version: '' }],
    ['a version of 65 characters', 'version', { commits: ['feat: a'], version: 'v'.repeat(65) }],
    ['a non-boolean dry_run', 'dry_run', { commits: ['feat: a'], dry_run: 'yes' }],
    ['an unknown field', 'publish', { commits: ['feat: a'], publish: true }],
  ])('refuses %s with VALIDATION_ERROR on %s and creates nothing', async (_case, param, body) => {
    const { project, secretKey } = await t.seedProject();
    const res = await t.api.as(secretKey).post('/v1/changelog/drafts').send(body).expect(400);
    expect(res.body).toMatchObject({
      data: null,
      error: { code: 'VALIDATION_ERROR', param, message: expect.any(String), remediation: expect.any(String) },
    });
    expect(await entriesOf(project.id)).toEqual([]);
  });

  it('refuses a draft whose body would pass the entry limit of 50000 characters, dry run or not', async () => {
    const { project, secretKey } = await t.seedProject();
    const commits = Array.from({ length: 1000 }, (_, i) => `feat: ${'long change description '.repeat(3)}${i}`);
    for (const dry_run of [true, false]) {
      const res = await t.api.as(secretKey).post('/v1/changelog/drafts').send({ commits, dry_run }).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'commits', message: expect.stringContaining('50000') });
    }
    expect(await entriesOf(project.id)).toEqual([]);
  });

  it('needs a secret key', async () => {
    const { project, publishableKey } = await t.seedProject();
    expect(
      (
        await t.api
          .post('/v1/changelog/drafts')
          .send({ commits: ['feat: a'] })
          .expect(401)
      ).body.error.code,
    ).toBe('MISSING_AUTH');
    const res = await t.api
      .as(publishableKey)
      .post('/v1/changelog/drafts')
      .send({ commits: ['feat: a'] })
      .expect(403);
    expect(res.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
    expect(await entriesOf(project.id)).toEqual([]);
  });

  it("writes the draft into the caller's project only", async () => {
    const a = await t.seedProject();
    const b = await t.seedProject();
    const res = await t.api
      .as(a.secretKey)
      .post('/v1/changelog/drafts')
      .send({ commits: ['feat: only a'] })
      .expect(201);
    expect(res.body.data.entry.project_id).toBe(a.project.id);
    expect(await entriesOf(b.project.id)).toEqual([]);
    expect((await entriesOf(a.project.id)).map((row) => row.id)).toEqual([res.body.data.entry.id]);
  });
});
