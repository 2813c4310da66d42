import { DueRows } from '../../src/infra/queue/due-rows.service';
import { WebhookDeliveryEntity } from '../../src/webhooks/entities/webhook-delivery.entity';
import { WebhookSender } from '../../src/webhooks/delivery/webhook-sender.service';
import { TestApp } from '../support/test-app';
import { Receiver, deliveriesOf, endpointRow, eventually, insertEndpoint } from './delivery-support';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const TIMEOUT_MS = 1_000;

// The production retry schedule, walked with the test clock; a short HTTP timeout for the timeout case.
describe('webhook delivery: sending, retries, failures', () => {
  let t: TestApp;
  let receiver: Receiver;
  let other: Receiver;

  beforeAll(async () => {
    t = await TestApp.start({
      env: { WEBHOOK_ALLOW_INSECURE_URLS: 'true', WEBHOOK_RETRY_DELAYS: '1m,5m,30m,2h,6h', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
    receiver = await Receiver.start();
    other = await Receiver.start();
  });
  beforeEach(() => {
    receiver.reset();
    other.reset();
  });
  afterEach(() => t.clock.reset());
  afterAll(async () => {
    await receiver.close();
    await other.close();
    await t.close();
  });

  async function signup(secretKey: string, email: string): Promise<void> {
    await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email }).expect(201);
  }

  it('POSTs the signed envelope with the service headers once the API call has committed', async () => {
    const { project, secretKey } = await t.seedProject({ plan: 'indie' });
    const { endpoint } = await insertEndpoint(t, project.id, { url: receiver.url, events: ['waitlist.signup.created'] });
    await signup(secretKey, 'ada@example.com');
    await receiver.waitFor(1);

    const [request] = receiver.requests;
    const [delivery] = await eventually(async () => {
      const rows = await deliveriesOf(t, endpoint.id);
      expect(rows[0]?.status).toBe('delivered');
      return rows;
    });
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toMatch(/^LaunchService-Webhooks\//);
    expect(request.headers['service-event-type']).toBe('waitlist.signup.created');
    expect(request.headers['service-event-id']).toBe(delivery.eventId);
    expect(request.headers['service-delivery-id']).toBe(delivery.id);
    expect(request.headers['service-signature']).toMatch(/^t=\d{10},v1=[0-9a-f]{64}$/);
    expect(request.json).toMatchObject({
      id: delivery.eventId,
      type: 'waitlist.signup.created',
      project_id: project.id,
      data: { email: 'ada@example.com', position: 1 },
    });
    expect(Object.keys(request.json).sort()).toEqual(['created_at', 'data', 'id', 'project_id', 'type']);
    expect(delivery).toMatchObject({ attempts: 1, responseStatus: 200, responseExcerpt: 'ok', lastError: null, lockedUntil: null });
    expect(delivery.durationMs).toBeGreaterThanOrEqual(0);
    expect(delivery.deliveredAt).toBeInstanceOf(Date);
  });

  it('plans nothing for endpoints not subscribed to the type, switched off, or of another project', async () => {
    const { project, secretKey } = await t.seedProject({ plan: 'builder' });
    const stranger = await t.seedProject({ plan: 'builder' });
    const feedbackOnly = await insertEndpoint(t, project.id, { url: other.url, events: ['feedback.created'] });
    const off = await insertEndpoint(t, project.id, { url: other.url, status: 'disabled' });
    const foreign = await insertEndpoint(t, stranger.project.id, { url: other.url });
    const all = await insertEndpoint(t, project.id, { url: receiver.url, events: ['*'] });
    await signup(secretKey, 'bob@example.com');
    await receiver.waitFor(1);
    await t.drainJobs();
    expect(await deliveriesOf(t, feedbackOnly.endpoint.id)).toHaveLength(0);
    expect(await deliveriesOf(t, off.endpoint.id)).toHaveLength(0);
    expect(await deliveriesOf(t, foreign.endpoint.id)).toHaveLength(0);
    expect(await deliveriesOf(t, all.endpoint.id)).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
  });

  it('retries on the schedule with the same event and delivery ids, then gives up', async () => {
    const { project, secretKey } = await t.seedProject({ plan: 'indie' });
    const { endpoint } = await insertEndpoint(t, project.id, { url: receiver.url });
    receiver.answer(503, 'down for maintenance');
    await signup(secretKey, 'cy@example.com');
    await receiver.waitFor(1);

    const delays = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR];
    for (const [index, delay] of delays.entries()) {
      const row = await eventually(async () => {
        const [current] = await deliveriesOf(t, endpoint.id);
        expect(current).toMatchObject({ status: 'pending', attempts: index + 1, lockedUntil: null, responseStatus: 503 });
        return current;
      });
      expect(row.nextAttemptAt.getTime() - row.lastAttemptAt!.getTime()).toBeGreaterThanOrEqual(delay - 1_000);
      expect(row.nextAttemptAt.getTime() - row.lastAttemptAt!.getTime()).toBeLessThanOrEqual(delay + 1_000);
      expect(row.responseExcerpt).toBe('down for maintenance');
      expect(row.lastError).toBe('The endpoint answered 503');
      // Not due a moment before its time.
      t.clock.advance(delay - 5_000);
      await t.drainJobs();
      expect(receiver.requests).toHaveLength(index + 1);
      t.clock.advance(5_000);
      await t.drainJobs();
      await receiver.waitFor(index + 2);
    }
    const [last] = await eventually(async () => {
      const rows = await deliveriesOf(t, endpoint.id);
      expect(rows[0].status).toBe('failed');
      return rows;
    });
    expect(last.attempts).toBe(6);
    expect(receiver.requests).toHaveLength(6);
    expect(new Set(receiver.requests.map((r) => r.headers['service-event-id'])).size).toBe(1);
    expect(new Set(receiver.requests.map((r) => r.headers['service-delivery-id']))).toEqual(new Set([last.id]));
    expect((await endpointRow(t, endpoint.id)).consecutiveFailures).toBe(6);
  });

  it('treats a 3xx as a failure and never follows the redirect', async () => {
    const { project, secretKey } = await t.seedProject({ plan: 'indie' });
    const { endpoint } = await insertEndpoint(t, project.id, { url: receiver.url });
    receiver.answer(307, '', { location: other.url });
    await signup(secretKey, 'di@example.com');
    await receiver.waitFor(1);
    const [row] = await eventually(async () => {
      const rows = await deliveriesOf(t, endpoint.id);
      expect(rows[0].responseStatus).toBe(307);
      expect(rows[0].lockedUntil).toBeNull();
      return rows;
    });
    expect(row.status).toBe('pending');
    expect(row.lastError).toMatch(/307 \(redirects are not followed\)/);
    await t.drainJobs();
    expect(other.requests).toHaveLength(0);
  });

  it('fails an attempt with no answer within WEBHOOK_TIMEOUT_MS', async () => {
    const { project, secretKey } = await t.seedProject({ plan: 'indie' });
    const { endpoint } = await insertEndpoint(t, project.id, { url: receiver.url });
    receiver.respond(async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 500));
      res.writeHead(200).end('too late');
    });
    await signup(secretKey, 'eve@example.com');
    const [row] = await eventually(async () => {
      const rows = await deliveriesOf(t, endpoint.id);
      expect(rows[0].lastError).toBe(`No answer within ${TIMEOUT_MS} ms`);
      return rows;
    });
    expect(row).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null, responseExcerpt: null });
    expect(row.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(row.durationMs).toBeLessThan(TIMEOUT_MS + 500);
  });

  it('a connection refused is a failure with the reason', async () => {
    const { project } = await t.seedProject({ plan: 'indie' });
    const closed = await Receiver.start();
    const url = closed.url;
    await closed.close();
    const { endpoint } = await insertEndpoint(t, project.id, { url });
    const sender = t.get(WebhookSender);
    const outcome = await sender.post(
      endpoint,
      { id: 'evt_x', type: 'webhook.test', created_at: new Date().toISOString(), project_id: project.id, data: {} },
      'whd_x',
    );
    expect(outcome.status).toBeNull();
    expect(outcome.error).toMatch(/Could not reach the endpoint \(ECONNREFUSED/);
  });

  it('switches the endpoint off after 20 failed deliveries in a row, ends its pending ones, and resumes once re-enabled', async () => {
    // A receiver of its own: earlier tests leave retries pending on the shared one, and this test moves the clock.
    const receiver = await Receiver.start();
    const { project, secretKey } = await t.seedProject({ plan: 'indie' });
    const { endpoint } = await insertEndpoint(t, project.id, { url: receiver.url });
    receiver.answer(500, 'boom');
    for (let i = 0; i < 20; i += 1) await signup(secretKey, `p${i}@example.com`);
    await receiver.waitFor(20);
    const off = await eventually(async () => {
      const row = await endpointRow(t, endpoint.id);
      expect(row.status).toBe('disabled');
      return row;
    });
    expect(off.consecutiveFailures).toBe(20);
    expect(off.disabledReason).toBe('20 consecutive failed deliveries; last: The endpoint answered 500');
    expect(off.disabledAt).toBeInstanceOf(Date);

    // Nothing planned while off; the pending retries end failed when due, without a request.
    await signup(secretKey, 'while-off@example.com');
    t.clock.advance(2 * MINUTE);
    await t.drainJobs();
    const rows = await deliveriesOf(t, endpoint.id);
    expect(rows).toHaveLength(20);
    expect(rows.every((row) => row.status === 'failed')).toBe(true);
    expect(rows[0].lastError).toMatch(/endpoint is disabled/);
    expect(receiver.requests).toHaveLength(20);

    // Re-enabled through the API: new events are delivered and recover resends the failed ones.
    const enabled = await t.api.as(secretKey).patch(`/v1/webhooks/${endpoint.id}`).send({ status: 'enabled' }).expect(200);
    expect(enabled.body.data).toMatchObject({ status: 'enabled', disabled_reason: null, consecutive_failures: 0 });
    receiver.answer(200, 'ok');
    await signup(secretKey, 'back@example.com');
    await receiver.waitFor(21);
    expect(receiver.requests[20].json).toMatchObject({ data: { email: 'back@example.com' } });

    const res = await t.api
      .as(secretKey)
      .post(`/v1/webhooks/${endpoint.id}/recover`)
      .send({ since: new Date(Date.now() - HOUR).toISOString() })
      .expect(200);
    expect(res.body.data).toEqual({ requeued: 20 });
    await receiver.waitFor(41);
    await eventually(async () => {
      const after = await deliveriesOf(t, endpoint.id);
      expect(after.filter((row) => row.status === 'delivered')).toHaveLength(21);
    });
    expect((await endpointRow(t, endpoint.id)).consecutiveFailures).toBe(0);
    await receiver.close();
  });
});

// Workers off: nothing but the test claims, sends or sweeps.
describe('webhook delivery: leases', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await TestApp.start({ env: { WORKERS: 'off', WEBHOOK_ALLOW_INSECURE_URLS: 'true', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
    receiver = await Receiver.start();
  });
  beforeEach(() => receiver.reset());
  afterEach(() => t.clock.reset());
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  async function plannedDelivery(): Promise<WebhookDeliveryEntity> {
    const { project, secretKey } = await t.seedProject({ plan: 'indie' });
    const { endpoint } = await insertEndpoint(t, project.id, { url: receiver.url });
    await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'lease@example.com' }).expect(201);
    const [row] = await deliveriesOf(t, endpoint.id);
    return row;
  }

  it('re-sends once after a worker died between claiming and sending, exactly once', async () => {
    const row = await plannedDelivery();
    const sender = t.get(WebhookSender);
    const claimed = await t.get(DueRows).claim(sender.definition, row.id);
    expect(claimed?.attempts).toBe(1);
    // The "worker" dies here: no request, no outcome. While the lease lasts nobody touches the row.
    await t.get(DueRows).sweep(sender.definition);
    for (const id of await t.get(DueRows).findDue(sender.definition)) await sender.deliver({ id });
    await sender.deliver({ id: row.id });
    expect(receiver.requests).toHaveLength(0);

    t.clock.advance(sender.definition.leaseMs + 1_000);
    const due = await t.get(DueRows).findDue(sender.definition);
    expect(due).toContain(row.id);
    await Promise.all([sender.deliver({ id: row.id }), sender.deliver({ id: row.id })]);
    expect(receiver.requests).toHaveLength(1);
    const after = await t.db.manager.findOneByOrFail(WebhookDeliveryEntity, { id: row.id });
    expect(after).toMatchObject({ status: 'delivered', attempts: 2, responseStatus: 200 });
  });

  it('two workers handling the same job send one request', async () => {
    const row = await plannedDelivery();
    const sender = t.get(WebhookSender);
    await Promise.all([sender.deliver({ id: row.id }), sender.deliver({ id: row.id }), sender.deliver({ id: row.id })]);
    expect(receiver.requests).toHaveLength(1);
    expect(await t.db.manager.findOneByOrFail(WebhookDeliveryEntity, { id: row.id })).toMatchObject({ status: 'delivered', attempts: 1 });
  });
});

// Without WEBHOOK_ALLOW_INSECURE_URLS the address is checked inside the connection's own DNS lookup.
describe('webhook delivery: public addresses only', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await TestApp.start();
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('refuses a name that resolves to a loopback address at connect time, and IP literals before it', async () => {
    const { project, secretKey } = await t.seedProject({ plan: 'indie' });
    const port = new URL(receiver.url).port;
    const byName = await insertEndpoint(t, project.id, { url: `https://localhost:${port}/hooks` });
    const res = await t.api.as(secretKey).post(`/v1/webhooks/${byName.endpoint.id}/test`).expect(200);
    expect(res.body.data).toMatchObject({ delivered: false, response_status: null });
    expect(res.body.data.error).toMatch(/localhost resolves to (127\.0\.0\.1|::1), which is not a public address/);

    const byIp = await insertEndpoint(t, project.id, { url: `https://127.0.0.1:${port}/hooks` });
    const direct = await t.api.as(secretKey).post(`/v1/webhooks/${byIp.endpoint.id}/test`).expect(200);
    expect(direct.body.data.error).toBe('Refused: 127.0.0.1 is not a public address');
    expect(receiver.requests).toHaveLength(0);
  });
});
