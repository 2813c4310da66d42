import type { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { AdjustableClock } from '../../src/common/clock/clock';
import { OutboxService } from '../../src/events/outbox.service';
import { ChangeNotifications } from '../../src/infra/database/change-notifications.service';
import { ProjectsService } from '../../src/projects/projects.service';
import { ApiClient } from '../support/api-client';
import { startPeerApp, untilListening } from '../support/peer-app';
import { SeededProject, TestApp } from '../support/test-app';
import { Receiver, deliveriesOf, sleep } from './delivery-support';

/**
 * A request whose project copy (the API key cache's) says the project has no enabled webhook
 * endpoint records its event without the planning statement (webhooks/delivery/delivery-planner.service.ts).
 * Two API processes on one database: A (the test app, with the workers) and B (a second app on A's
 * database, whose copy is warm). The rule checked: an endpoint gets every event of a request sent
 * after its creation (or re-enabling) was answered, whichever process records it. Needs a
 * PostgreSQL server: the embedded database serves one process, and statements are counted on pg's
 * client.
 */
const realPostgres = Boolean(process.env.DATABASE_URL);
const PLANNING = 'INSERT INTO webhook_deliveries';
const EVENT = 'INSERT INTO events';

/** Every statement any pg client of this test process sent while `work` ran (transactions included). */
async function sqlDuring(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const original = Client.prototype.query;
  const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
    const [statement] = args;
    sent.push(typeof statement === 'string' ? statement : String((statement as { text?: string })?.text ?? ''));
    return (original as (...rest: unknown[]) => unknown).apply(this, args);
  } as typeof Client.prototype.query);
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return sent;
}

const count = (statements: string[], text: string) => statements.filter((sql) => sql.includes(text)).length;

(realPostgres ? describe : describe.skip)('webhook delivery planning skipped for projects without endpoints', () => {
  let a: TestApp;
  let b: NestExpressApplication;
  let bApi: ApiClient;
  const bClock = new AdjustableClock();
  let receiver: Receiver;
  let p: SeededProject;
  let emails = 0;

  beforeAll(async () => {
    a = await TestApp.start({ env: { WEBHOOK_ALLOW_INSECURE_URLS: 'true' } });
    b = await startPeerApp(a, bClock, { WEBHOOK_ALLOW_INSECURE_URLS: 'true' });
    bApi = new ApiClient(b.getHttpServer());
    receiver = await Receiver.start();
  });
  beforeEach(async () => {
    p = await a.seedProject({ plan: 'indie' });
    await untilListening([a, b]);
  });
  afterAll(async () => {
    await receiver?.close();
    await b?.close();
    await a?.close();
  });

  const cached = (app: { get: TestApp['get'] }) => app.get(ApiKeysService).cachedKey(p.secretKey);

  /** The process holds a copy of the project; a listener that has just put LISTEN in place drops every copy once. */
  async function warm(app: { get: TestApp['get'] }, api: ApiClient, hasWebhookEndpoints: boolean): Promise<void> {
    for (let tries = 0; cached(app) === undefined && tries < 100; tries += 1) {
      await api.as(p.secretKey).get('/v1/setup-check').expect(200);
      if (cached(app) === undefined) await sleep(20);
    }
    expect(cached(app)?.project).toMatchObject({ id: p.project.id, hasWebhookEndpoints });
  }

  async function signup(api: ApiClient): Promise<string> {
    emails += 1;
    const res = await api
      .as(p.secretKey)
      .post('/v1/waitlist/signups')
      .send({ email: `person-${emails}@example.com` });
    expect(res.status).toBe(201);
    return res.body.data.signup_id;
  }

  const createEndpoint = async (api: ApiClient = a.api): Promise<string> =>
    (
      await api
        .as(p.secretKey)
        .post('/v1/webhooks')
        .send({ url: receiver.url, events: ['*'] })
        .expect(201)
    ).body.data.id;

  const eventsOfSignup = async (signupId: string): Promise<string[]> =>
    (await a.db.manager.query(`SELECT id FROM events WHERE project_id = $1 AND data ->> 'signup_id' = $2`, [p.project.id, signupId])).map(
      (row: { id: string }) => row.id,
    );

  it('records the event of a project without endpoints and runs no planning statement', async () => {
    await warm(a, a.api, false);
    let signupId = '';
    const statements = await sqlDuring(async () => (signupId = await signup(a.api)));
    expect({ events: count(statements, EVENT), planning: count(statements, PLANNING) }).toEqual({ events: 1, planning: 0 });
    expect(await eventsOfSignup(signupId)).toHaveLength(1);
    const [{ n }] = await a.db.manager.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE project_id = $1', [p.project.id]);
    expect(n).toBe(0);
  });

  it('keeps planning where no cached copy of the project vouches: jobs, the CLI, dashboard routes', async () => {
    await warm(a, a.api, false);
    const outbox = a.get(OutboxService);
    const unknown = await a.get(ProjectsService).findById(p.project.id);
    const statements = await sqlDuring(() =>
      a.db.transaction(async (em) => {
        await outbox.record(em, p.project.id, 'waitlist.signups.invited', { count: 0, invited: [], invited_at: new Date().toISOString() });
        await outbox.record(em, unknown!, 'waitlist.signups.invited', { count: 0, invited: [], invited_at: new Date().toISOString() });
      }),
    );
    expect({ events: count(statements, EVENT), planning: count(statements, PLANNING) }).toEqual({ events: 2, planning: 2 });
  });

  it('plans for an endpoint created on A an event recorded at once on B, which held the project without endpoints', async () => {
    await warm(b, bApi, false);
    const endpointId = await createEndpoint(a.api);
    let signupId = '';
    const statements = await sqlDuring(async () => (signupId = await signup(bApi)));
    expect(count(statements, PLANNING)).toBe(1);
    const [eventId] = await eventsOfSignup(signupId);
    const planned = await deliveriesOf(a, endpointId);
    expect(planned.map((row) => row.eventId)).toEqual([eventId]);
    expect(cached(b)?.project.hasWebhookEndpoints).toBe(true);
  });

  it('skips again once the last endpoint is disabled or deleted, and plans again once it is re-enabled', async () => {
    const endpointId = await createEndpoint();
    await warm(b, bApi, true);
    expect(count(await sqlDuring(() => signup(bApi)), PLANNING)).toBe(1);

    await a.api.as(p.secretKey).patch(`/v1/webhooks/${endpointId}`).send({ status: 'disabled' }).expect(200);
    expect(count(await sqlDuring(() => signup(bApi)), PLANNING)).toBe(0);
    expect(cached(b)?.project.hasWebhookEndpoints).toBe(false);

    await a.api.as(p.secretKey).patch(`/v1/webhooks/${endpointId}`).send({ status: 'enabled' }).expect(200);
    expect(count(await sqlDuring(() => signup(bApi)), PLANNING)).toBe(1);

    await a.api.as(p.secretKey).delete(`/v1/webhooks/${endpointId}`).expect(200);
    expect(count(await sqlDuring(() => signup(bApi)), PLANNING)).toBe(0);
    expect(cached(b)?.project.hasWebhookEndpoints).toBe(false);
    // Only the two signups while the endpoint was on were planned; the delete took their rows with it.
    const [{ n }] = await a.db.manager.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE project_id = $1', [p.project.id]);
    expect(n).toBe(0);
  });

  it('keeps the copies when an endpoint creation rolls back: the change is announced only at commit', async () => {
    await warm(a, a.api, false);
    await warm(b, bApi, false);
    const heard: Record<'A' | 'B', string[]> = { A: [], B: [] };
    const listeners = { A: a.get(ChangeNotifications), B: b.get(ChangeNotifications) };
    for (const name of ['A', 'B'] as const) {
      listeners[name].subscribe({ onChange: { project: (id: string) => heard[name].push(id) }, onGap: () => undefined });
    }
    const projects = a.get(ProjectsService);
    const announce = projects.announceChange.bind(projects);
    const failing = jest.spyOn(projects, 'announceChange').mockImplementationOnce(async (em, projectId) => {
      await announce(em, projectId);
      throw new Error('fails after the announcement, inside the transaction');
    });
    const res = await a.api
      .as(p.secretKey)
      .post('/v1/webhooks')
      .send({ url: receiver.url, events: ['*'] });
    failing.mockRestore();
    expect(res.status).toBe(500);
    const [{ n }] = await a.db.manager.query('SELECT count(*)::int AS n FROM webhook_endpoints WHERE project_id = $1', [p.project.id]);
    expect(n).toBe(0);

    // Notifications arrive in commit order: once a later committed one has reached both, the other never will.
    const marker = (await a.seedProject()).project.id;
    await a.db.transaction((em) => projects.announceChange(em, marker));
    for (let tries = 0; !heard.B.includes(marker) && tries < 250; tries += 1) await sleep(20);
    expect(heard.A).toContain(marker);
    expect(heard.B).toContain(marker);
    expect([...heard.A, ...heard.B]).not.toContain(p.project.id);
    expect(cached(a)?.project.hasWebhookEndpoints).toBe(false);
    expect(cached(b)?.project.hasWebhookEndpoints).toBe(false);
    expect(count(await sqlDuring(() => signup(bApi)), PLANNING)).toBe(0);
  });
});
