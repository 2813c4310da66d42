import { IX_NOTIFICATIONS_BROADCASTS } from '../../src/notifications/entities/notification.entity';
import { IX_RECIPIENTS_USER } from '../../src/notifications/entities/notification-recipient.entity';
import { BELL_STATE_SQL, UNREAD_COUNT_SQL, bellListStatement, broadcastWindowStart } from '../../src/notifications/bell/bell.queries';
import { TestApp } from '../support/test-app';

/**
 * The unread count is the poll path's one statement: its plan must be two index range scans (the
 * person's recipients, the broadcast window), each anti-joined with the person's receipts by
 * primary key, and never a scan of the project's notifications or receipts.
 */
describe('Bell query plans', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  /** 4,000 targeted notifications over 400 people, 60 daily broadcasts, some receipts: enough for the planner to choose. */
  async function seedVolume(projectId: string): Promise<void> {
    await t.db.transaction(async (em) => {
      await em.query(
        `INSERT INTO notifications (id, project_id, kind, user_id, title, body, icon, actions, status, visible_at, recipient_count, created_at)
         SELECT 'ntf_' || substr(md5($1 || 'u' || g), 1, 26), $1, 'user', 'user_' || (g % 400), 'T', 'B', 'info', '[]', 'visible', now() - g * interval '10 minutes', 1, now()
         FROM generate_series(1, 4000) g`,
        [projectId],
      );
      await em.query(
        `INSERT INTO notification_recipients (notification_id, user_id, project_id, visible_at)
         SELECT id, user_id, project_id, visible_at FROM notifications WHERE project_id = $1 AND kind = 'user'`,
        [projectId],
      );
      await em.query(
        `INSERT INTO notifications (id, project_id, kind, title, body, icon, actions, status, visible_at, recipient_count, created_at, pinned)
         SELECT 'ntf_' || substr(md5($1 || 'b' || g), 1, 26), $1, 'broadcast', 'T', 'B', 'info', '[]', 'visible', now() - g * interval '1 day', 0, now(), g = 45
         FROM generate_series(1, 60) g`,
        [projectId],
      );
      await em.query(
        `INSERT INTO notification_receipts (notification_id, user_id, project_id, read_at, updated_at)
         SELECT id, 'user_' || (row_number() OVER () % 400), project_id, now(), now() FROM notifications WHERE project_id = $1`,
        [projectId],
      );
      await em.query('ANALYZE notifications; ANALYZE notification_recipients; ANALYZE notification_receipts');
    });
  }

  async function explain(sql: string, params: unknown[]): Promise<string> {
    const rows: { 'QUERY PLAN': string }[] = await t.db.manager.query(`EXPLAIN ${sql}`, params);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  it('counts unread with index scans on the recipients and broadcast indexes, and no sequential scan', async () => {
    const { project } = await t.seedProject();
    const { project: other } = await t.seedProject();
    await seedVolume(project.id);
    await seedVolume(other.id);
    const now = new Date();
    const plan = await explain(UNREAD_COUNT_SQL, [project.id, 'user_7', now, broadcastWindowStart(now)]);
    expect(plan).toContain(IX_RECIPIENTS_USER);
    expect(plan).toContain(IX_NOTIFICATIONS_BROADCASTS);
    expect(plan).not.toMatch(/Seq Scan on notification/);
    // The receipts are looked up by their primary key (notification_id, user_id) for each candidate.
    expect(plan).toMatch(/Index (Only )?Scan using \S+ on notification_receipts/);
  });

  it('reads the count with the next time it changes from the same two indexes, each extra part a bounded scan', async () => {
    const { project } = await t.seedProject();
    await seedVolume(project.id);
    const now = new Date();
    const plan = await explain(BELL_STATE_SQL, [project.id, 'user_7', now, broadcastWindowStart(now)]);
    expect(plan).not.toMatch(/Seq Scan on notification/);
    // Five range scans: the count's two halves, and the three "next change" times.
    expect(plan.match(new RegExp(`using ${IX_RECIPIENTS_USER}`, 'g'))?.length).toBe(2);
    expect(plan.match(new RegExp(`using ${IX_NOTIFICATIONS_BROADCASTS}`, 'g'))?.length).toBe(3);
    const rows: { unread_count: string; next_change_at: Date | null }[] = await t.db.manager.query(BELL_STATE_SQL, [
      project.id,
      'user_7',
      now,
      broadcastWindowStart(now),
    ]);
    // Everything seeded is in the past: the next change is the oldest unpinned broadcast of the window leaving it.
    const oldest: { visible_at: Date }[] = await t.db.manager.query(
      `SELECT min(visible_at) AS visible_at FROM notifications
        WHERE project_id = $1 AND kind = 'broadcast' AND NOT pinned AND visible_at > $2`,
      [project.id, broadcastWindowStart(now)],
    );
    expect(new Date(rows[0].next_change_at!).getTime()).toBe(new Date(oldest[0].visible_at).getTime() + 30 * 86_400_000);
  });

  it('lists the inbox from the same two indexes', async () => {
    const { project } = await t.seedProject();
    await seedVolume(project.id);
    const now = new Date();
    const { sql, params } = bellListStatement({ projectId: project.id, userId: 'user_7', now }, { limit: 20 });
    const plan = await explain(sql, params);
    expect(plan).toContain(IX_RECIPIENTS_USER);
    expect(plan).toContain(IX_NOTIFICATIONS_BROADCASTS);
    expect(plan).not.toMatch(/Seq Scan on notification/);
  });
});
