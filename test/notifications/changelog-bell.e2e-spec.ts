import { NotificationEntity } from '../../src/notifications/entities/notification.entity';
import { TestApp } from '../support/test-app';

describe('Changelog entries in the bell', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  const broadcastsOf = (projectId: string) => t.db.manager.find(NotificationEntity, { where: { projectId } });
  const entry = (key: string, fields: Record<string, unknown> = {}) =>
    t.api
      .as(key)
      .post('/v1/changelog/entries')
      .send({ title: 'Dark mode', body_markdown: 'Now with **dark mode**.', category: 'feature', ...fields })
      .expect(201);

  it('makes exactly one broadcast per entry, however often it is saved, archived and unarchived', async () => {
    const { project, secretKey } = await t.seedProject();
    const created = (await entry(secretKey, { notify_in_app: true, status: 'draft' })).body.data;
    expect(await broadcastsOf(project.id)).toEqual([]);
    await t.api.as(secretKey).patch(`/v1/changelog/entries/${created.id}`).send({ status: 'published' }).expect(200);
    await t.api.as(secretKey).patch(`/v1/changelog/entries/${created.id}`).send({ pinned: true }).expect(200);
    await t.api.as(secretKey).post(`/v1/changelog/entries/${created.id}/archive`).expect(200);
    await t.api.as(secretKey).post(`/v1/changelog/entries/${created.id}/unarchive`).expect(200);
    const broadcasts = await broadcastsOf(project.id);
    expect(broadcasts).toEqual([
      expect.objectContaining({
        kind: 'broadcast',
        userId: null,
        title: 'Dark mode',
        body: 'Now with dark mode.',
        actionUrl: `https://launch.test/changelog/${project.slug}/${created.id}`,
        icon: 'info',
        category: 'changelog',
        pinned: false,
        status: 'visible',
        recipientCount: 0,
        usageMonth: null,
        changelogEntryId: created.id,
      }),
    ]);
  });

  it('does not count toward the monthly notification quota', async () => {
    const { project, secretKey } = await t.seedProject();
    await entry(secretKey, { notify_in_app: true });
    expect(await broadcastsOf(project.id)).toHaveLength(1);
    const usage = await t.db.manager.query('SELECT sent FROM notification_usage WHERE project_id = $1', [project.id]);
    expect(usage).toEqual([]);
  });

  it('keeps a long body to a short plain-text excerpt', async () => {
    const { project, secretKey } = await t.seedProject();
    await entry(secretKey, { notify_in_app: true, body_markdown: `# Big release\n\n${'Lots of *news* here. '.repeat(100)}` });
    const [broadcast] = await broadcastsOf(project.id);
    expect(broadcast.body.length).toBeLessThanOrEqual(280);
    expect(broadcast.body.startsWith('Big release Lots of news here.')).toBe(true);
    expect(broadcast.body.endsWith('…')).toBe(true);
  });

  it('publishes a scheduled entry to the bell when its time comes', async () => {
    const { project, secretKey } = await t.seedProject();
    const at = new Date(t.clock.now().getTime() + 3_600_000);
    const created = (await entry(secretKey, { notify_in_app: true, scheduled_at: at.toISOString() })).body.data;
    expect(await broadcastsOf(project.id)).toEqual([]);
    t.clock.advance(3_600_000 + 1_000);
    await t.drainJobs();
    const broadcasts = await broadcastsOf(project.id);
    expect(broadcasts).toEqual([expect.objectContaining({ changelogEntryId: created.id, kind: 'broadcast' })]);
  });

  describe('notify_in_app default (changelog_to_bell_default)', () => {
    it('is off unless the project turns it on', async () => {
      const { project, secretKey } = await t.seedProject();
      const quiet = await entry(secretKey);
      expect(quiet.body.meta.entry_options.notify_in_app).toBe(false);
      expect(await broadcastsOf(project.id)).toEqual([]);
    });

    it('follows the setting when the entry does not say, and the entry when it does', async () => {
      const { project, secretKey } = await t.seedProject();
      await t.api.as(secretKey).patch('/v1/notifications/settings').send({ changelog_to_bell_default: true }).expect(200);
      const loud = (await entry(secretKey)).body;
      expect(loud.meta.entry_options.notify_in_app).toBe(true);
      const quiet = (await entry(secretKey, { notify_in_app: false })).body;
      expect(quiet.meta.entry_options.notify_in_app).toBe(false);
      const broadcasts = await broadcastsOf(project.id);
      expect(broadcasts.map((row) => row.changelogEntryId)).toEqual([loud.data.id]);
    });
  });
});
