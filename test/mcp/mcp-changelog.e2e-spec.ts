import { Writable } from 'node:stream';
import { ChangelogEntryEntity } from '../../src/changelog/entities/changelog-entry.entity';
import { EventEntity } from '../../src/events/entities/event.entity';
import { seedEntry, seedLabel } from '../support/changelog-seed';
import { TestApp, type SeededProject } from '../support/test-app';
import { Receiver } from '../webhooks/delivery-support';
import { type AgentClient, connectV1, connectV2, failure, listen, ok } from './mcp-clients';

class LogLines extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
}

describe('MCP changelog tools', () => {
  let t: TestApp;
  let url: string;
  let owner: SeededProject;
  let stranger: SeededProject;
  let receiver: Receiver;
  let agent: AgentClient;
  const log = new LogLines();

  beforeAll(async () => {
    t = await TestApp.start({ env: { WEBHOOK_ALLOW_INSECURE_URLS: 'true', LOG_LEVEL: 'info' }, logDestination: log });
    url = `${await listen(t)}/mcp`;
    receiver = await Receiver.start();
    owner = await t.seedProject({ plan: 'indie', slug: 'mcp-changelog' });
    stranger = await t.seedProject({ plan: 'indie' });
    agent = await connectV2(url, owner.secretKey, { modern: true });
  });
  afterAll(async () => {
    await agent.close();
    await receiver.close();
    await t.close();
  });

  const rowOf = (id: string) => t.db.manager.findOneByOrFail(ChangelogEntryEntity, { id });
  const draftInput = (title: string) => ({ title, body_markdown: 'You can now **export** reports.', category: 'feature' });

  describe.each([
    ['v1', (key: string) => connectV1(url, key)],
    ['v2', (key: string) => connectV2(url, key, { modern: true })],
  ])('the %s client', (_name, connect) => {
    it('drives an entry from draft to published with one confirmation, and the entry emits the REST webhook event', async () => {
      const project = await t.seedProject({ plan: 'indie' });
      const client = await connect(project.secretKey);
      try {
        const hook = await ok(client, 'create_webhook', { url: receiver.url, events: ['changelog.entry.published'] });
        expect(hook).toMatchObject({ status: 'enabled', events: ['changelog.entry.published'], signing_secret: expect.any(String) });
        const draft = await ok(client, 'create_changelog_entry', draftInput('Export to PDF'));
        expect(draft).toMatchObject({ status: 'draft', title: 'Export to PDF', published_at: null });
        const id = draft.id as string;

        const preview = await ok(client, 'publish_changelog_entry', { id });
        expect(preview).toEqual({
          requires_confirmation: true,
          preview: expect.objectContaining({
            action: 'publish_now',
            entry_id: id,
            public_url: draft.public_url,
            audience: 'public',
            bell_users: 0,
            subscribers: 0,
            json_endpoints: 1,
            chat_endpoints: 0,
          }),
        });
        expect((await rowOf(id)).status).toBe('draft');
        expect(await t.db.manager.count(EventEntity, { where: { projectId: project.project.id } })).toBe(0);

        const published = await ok(client, 'publish_changelog_entry', { id, confirm: true });
        expect(published).toMatchObject({ id, status: 'published', published_at: expect.any(String) });
        expect((await rowOf(id)).status).toBe('published');
        const events = await t.db.manager.find(EventEntity, {
          where: { projectId: project.project.id, type: 'changelog.entry.published' },
        });
        expect(events).toHaveLength(1);
        await t.drainJobs();
        await receiver.waitFor(1);
        const sent = receiver.requests.find((request) => (request.json as { data?: { entry_id?: string } })?.data?.entry_id === id);
        expect(sent?.json).toMatchObject({ type: 'changelog.entry.published', data: { entry_id: id, title: 'Export to PDF' } });
      } finally {
        await client.close();
      }
    });
  });

  it('schedules with publish_at and changes nothing without confirm', async () => {
    const draft = await ok(agent, 'create_changelog_entry', draftInput('Later'));
    const at = new Date(t.clock.now().getTime() + 86_400_000).toISOString();
    const preview = await ok(agent, 'publish_changelog_entry', { id: draft.id, publish_at: at });
    expect(preview.preview).toMatchObject({ action: 'schedule', publish_at: at });
    expect((await rowOf(draft.id as string)).status).toBe('draft');
    const scheduled = await ok(agent, 'publish_changelog_entry', { id: draft.id, publish_at: at, confirm: true });
    expect(scheduled).toMatchObject({ status: 'scheduled', scheduled_at: at });
  });

  it('refuses a publish_at that is not a date-time as VALIDATION_ERROR with param', async () => {
    const draft = await ok(agent, 'create_changelog_entry', draftInput('Bad date'));
    expect(await failure(agent, 'publish_changelog_entry', { id: draft.id, publish_at: 'soon', confirm: true })).toMatchObject({
      code: 'VALIDATION_ERROR',
      param: 'publish_at',
    });
    expect((await rowOf(draft.id as string)).status).toBe('draft');
  });

  it('archives only with confirm: true', async () => {
    const entry = await seedEntry(t, owner.project.id, { status: 'published', publishedAt: t.clock.now() });
    const preview = await ok(agent, 'archive_changelog_entry', { id: entry.id });
    expect(preview).toMatchObject({ requires_confirmation: true, preview: { action: 'archive', entry_id: entry.id, status: 'published' } });
    expect((await rowOf(entry.id)).status).toBe('published');
    expect(await ok(agent, 'archive_changelog_entry', { id: entry.id, confirm: true })).toMatchObject({ id: entry.id, status: 'archived' });
    expect((await rowOf(entry.id)).status).toBe('archived');
  });

  it('archive refuses a confirm that is not a boolean, changing nothing', async () => {
    const entry = await seedEntry(t, owner.project.id, { status: 'draft' });
    expect(await failure(agent, 'archive_changelog_entry', { id: entry.id, confirm: 'yes' })).toMatchObject({
      code: 'VALIDATION_ERROR',
      param: 'confirm',
    });
    expect((await rowOf(entry.id)).status).toBe('draft');
  });

  it('create always makes a draft: status and publish fields are unknown arguments', async () => {
    for (const field of ['status', 'scheduled_at']) {
      const error = await failure(agent, 'create_changelog_entry', { ...draftInput('Sneaky'), [field]: 'published' });
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR', param: field, message: `Unknown field "${field}".` });
    }
    expect(await failure(agent, 'create_changelog_entry', { ...draftInput('x'), bogus: 1 })).toMatchObject({ param: 'bogus' });
    expect(await failure(agent, 'create_changelog_entry', { ...draftInput('x'.repeat(201)) })).toMatchObject({
      code: 'VALIDATION_ERROR',
      param: 'title',
    });
    expect(await t.db.manager.count(ChangelogEntryEntity, { where: { title: 'Sneaky' } })).toBe(0);
  });

  it('replays a create with the same idempotency_key, and refuses the key with other arguments', async () => {
    const first = await ok(agent, 'create_changelog_entry', { ...draftInput('Once'), idempotency_key: 'once-1' });
    const again = await ok(agent, 'create_changelog_entry', { ...draftInput('Once'), idempotency_key: 'once-1' });
    expect(again.id).toBe(first.id);
    expect(await t.db.manager.count(ChangelogEntryEntity, { where: { title: 'Once' } })).toBe(1);
    expect(await failure(agent, 'create_changelog_entry', { ...draftInput('Twice'), idempotency_key: 'once-1' })).toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
      param: 'idempotency_key',
    });
  });

  it('updates a draft, and refuses a published entry’s title with CANNOT_EDIT_PUBLISHED', async () => {
    const draft = await ok(agent, 'create_changelog_entry', draftInput('Before'));
    expect(await ok(agent, 'update_changelog_entry', { id: draft.id, title: 'After', version: '1.2.0' })).toMatchObject({
      title: 'After',
      version: '1.2.0',
    });
    const entry = await seedEntry(t, owner.project.id, { status: 'published', publishedAt: t.clock.now() });
    expect(await failure(agent, 'update_changelog_entry', { id: entry.id, title: 'New' })).toMatchObject({
      code: 'CANNOT_EDIT_PUBLISHED',
      param: 'title',
    });
    expect(await failure(agent, 'update_changelog_entry', { id: draft.id, status: 'published' })).toMatchObject({ param: 'status' });
  });

  it('lists and gets entries; another project’s entry is NOT_FOUND, as in REST', async () => {
    await seedEntry(t, owner.project.id, { title: 'Listed one' });
    const page = await ok(agent, 'list_changelog_entries', { limit: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.next_cursor).toEqual(expect.any(String));
    const next = await ok(agent, 'list_changelog_entries', { limit: 1, cursor: page.next_cursor });
    expect((next.items as { id: string }[])[0].id).not.toBe((page.items as { id: string }[])[0].id);
    const theirs = await seedEntry(t, stranger.project.id, { title: 'Not yours' });
    const rest = await t.api.as(owner.secretKey).get(`/v1/changelog/entries/${theirs.id}`);
    const error = await failure(agent, 'get_changelog_entry', { id: theirs.id });
    expect(error).toMatchObject({ code: rest.body.error.code, param: 'id' });
    expect(error.code).toBe('NOT_FOUND');
    expect(await failure(agent, 'get_changelog_entry', { id: 'nope' })).toMatchObject({ code: 'NOT_FOUND', param: 'id' });
    expect(await failure(agent, 'list_changelog_entries', { status: 'gone' })).toMatchObject({ code: 'VALIDATION_ERROR', param: 'status' });
    expect(await ok(agent, 'get_changelog_entry', { id: (page.items as { id: string }[])[0].id })).toMatchObject({
      project_id: owner.project.id,
    });
  });

  it('answers structuredContent equal to the REST answer’s data', async () => {
    const entry = await seedEntry(t, owner.project.id, { title: 'Same on both', labels: ['billing'] });
    const rest = await t.api.as(owner.secretKey).get(`/v1/changelog/entries/${entry.id}`).expect(200);
    expect(await ok(agent, 'get_changelog_entry', { id: entry.id })).toEqual(rest.body.data);
    const restList = await t.api.as(owner.secretKey).get('/v1/changelog/entries?limit=3').expect(200);
    expect(await ok(agent, 'list_changelog_entries', { limit: 3 })).toEqual({
      items: restList.body.data,
      next_cursor: restList.body.meta.next_cursor,
    });
    const setup = await t.api.as(owner.secretKey).get('/v1/setup-check').expect(200);
    expect(await ok(agent, 'setup_check')).toEqual(setup.body.data);
  });

  it('drafts from commits (never published), and refuses an empty commit list', async () => {
    const draft = await ok(agent, 'draft_changelog_from_commits', {
      commits: ['feat: dark mode', 'fix: double emails', 'chore: deps'],
      version: '2.0.0',
    });
    expect(draft).toMatchObject({ skipped: 1 });
    expect(JSON.stringify(draft)).toContain('dark mode');
    expect(await failure(agent, 'draft_changelog_from_commits', { commits: [] })).toMatchObject({
      code: 'VALIDATION_ERROR',
      param: 'commits',
    });
    const rows = await t.db.manager.find(ChangelogEntryEntity, { where: { projectId: owner.project.id, version: '2.0.0' } });
    expect(rows.map((row) => row.status)).toEqual(['draft']);
  });

  it('answers stats and labels as {items, next_cursor: null}', async () => {
    await seedLabel(t, owner.project.id, { name: 'Billing', slug: 'billing' });
    const labels = await ok(agent, 'list_changelog_labels');
    expect(labels).toMatchObject({ next_cursor: null, items: [expect.objectContaining({ slug: 'billing' })] });
    expect(await ok(agent, 'get_changelog_stats', { limit: 5 })).toMatchObject({ next_cursor: null, items: expect.any(Array) });
    expect(await failure(agent, 'get_changelog_stats', { limit: 0 })).toMatchObject({ code: 'VALIDATION_ERROR', param: 'limit' });
    expect(await failure(agent, 'list_changelog_labels', { q: 'x' })).toMatchObject({ code: 'VALIDATION_ERROR', param: 'q' });
  });

  it('writes the access log line with via "mcp" and the tool name', async () => {
    await ok(agent, 'list_changelog_labels');
    const line = log.lines.reverse().find((entry) => entry.mcp_tool === 'list_changelog_labels');
    expect(line).toMatchObject({ via: 'mcp', route: '/mcp', status: 200, project_id: owner.project.id });
  });
});
