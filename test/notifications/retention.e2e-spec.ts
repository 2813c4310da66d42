import { NotificationRetention } from '../../src/notifications/retention/notification-retention.service';
import { TestApp } from '../support/test-app';

const DAY_MS = 24 * 3_600_000;

describe('Notification retention', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  const q = (sql: string, params: unknown[] = []) => t.db.manager.query(sql, params);
  const count = async (table: string, projectId: string) =>
    Number((await q(`SELECT count(*)::int AS n FROM ${table} WHERE project_id = $1`, [projectId]))[0].n);

  /** A notification row as the sending code writes it, shown at `visibleAt`. */
  async function insertNotification(projectId: string, id: string, kind: string, visibleAt: Date, status = 'visible'): Promise<void> {
    await q(
      `INSERT INTO notifications (id, project_id, kind, user_id, title, body, icon, status, visible_at, pinned, created_at)
       VALUES ($1, $2, $3, NULL, 'Hello', 'World', 'info', $4, $5, $6, $5)`,
      [id, projectId, kind, status, visibleAt, kind === 'broadcast'],
    );
  }

  it('deletes notifications with their recipients and receipts 90 days after they showed, and bell users unseen for 90 days', async () => {
    const { project } = await t.seedProject();
    const other = await t.seedProject();
    const shown = t.clock.now();
    const suffix = project.id.slice(4, 20);
    await insertNotification(project.id, `ntf_OLDGROUP${suffix}`, 'group', shown);
    await insertNotification(project.id, `ntf_OLDBCAST${suffix}`, 'broadcast', shown);
    await q(
      `INSERT INTO notification_recipients (notification_id, user_id, project_id, visible_at)
       SELECT $1, 'user_' || n, $2, $3 FROM generate_series(1, 12000) AS n`,
      [`ntf_OLDGROUP${suffix}`, project.id, shown],
    );
    await q(
      `INSERT INTO notification_receipts (notification_id, user_id, project_id, read_at, updated_at)
       SELECT $1, 'user_' || n, $2, $3, $3 FROM generate_series(1, 7000) AS n`,
      [`ntf_OLDBCAST${suffix}`, project.id, shown],
    );
    await q(
      `INSERT INTO bell_users (project_id, user_id, first_seen_at, last_seen_at) SELECT $1, 'user_' || n, $2, $2 FROM generate_series(1, 6000) AS n`,
      [project.id, shown],
    );
    await q(`INSERT INTO bell_users (project_id, user_id, first_seen_at, last_seen_at) VALUES ($1, 'other', $2, $2)`, [
      other.project.id,
      shown,
    ]);

    t.clock.advance(30 * DAY_MS);
    // Shown later, and one still scheduled for later: both stay.
    await insertNotification(project.id, `ntf_NEWUSER${suffix}`, 'user', t.clock.now());
    await insertNotification(project.id, `ntf_SCHEDULED${suffix}`, 'user', new Date(t.clock.now().getTime() + 30 * DAY_MS), 'scheduled');
    await q(`UPDATE bell_users SET last_seen_at = $2 WHERE project_id = $1 AND user_id = 'user_1'`, [project.id, t.clock.now()]);

    t.clock.advance(59 * DAY_MS);
    expect(await t.get(NotificationRetention).purgeExpired()).toEqual({ notifications: 0, bellUsers: 0 });

    t.clock.advance(2 * DAY_MS);
    // Exact counts: each e2e file has a database of its own, and this test runs first in it.
    expect(await t.get(NotificationRetention).purgeExpired()).toEqual({ notifications: 2, bellUsers: 6000 });
    const left = await q('SELECT id FROM notifications WHERE project_id = $1 ORDER BY id', [project.id]);
    expect(left.map((row: { id: string }) => row.id)).toEqual([`ntf_NEWUSER${suffix}`, `ntf_SCHEDULED${suffix}`]);
    expect(await count('notification_recipients', project.id)).toBe(0);
    expect(await count('notification_receipts', project.id)).toBe(0);
    const bellUsers = await q('SELECT user_id FROM bell_users WHERE project_id = $1', [project.id]);
    expect(bellUsers).toEqual([{ user_id: 'user_1' }]);
    expect(await count('bell_users', other.project.id)).toBe(0);
  });

  it('works through more notifications than one batch', async () => {
    const { project } = await t.seedProject();
    await q(
      `INSERT INTO notifications (id, project_id, kind, title, body, icon, status, visible_at, created_at)
       SELECT 'ntf_BATCH' || lpad(n::text, 5, '0') || $3, $1, 'broadcast', 'Hi', 'There', 'info', 'visible', $2, $2
       FROM generate_series(1, 450) AS n`,
      [project.id, t.clock.now(), project.id.slice(4, 16)],
    );
    t.clock.advance(91 * DAY_MS);
    const result = await t.get(NotificationRetention).purgeExpired();
    expect(result.notifications).toBeGreaterThanOrEqual(450);
    expect(await count('notifications', project.id)).toBe(0);
  });
});
