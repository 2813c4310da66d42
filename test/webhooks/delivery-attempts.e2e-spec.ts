import { newId } from '../../src/common/ids/ids';
import { ATTEMPTS_KEPT } from '../../src/webhooks/delivery/deliveries.queries';
import { DeliveryRetention } from '../../src/webhooks/delivery/delivery-retention.service';
import { WebhookDeliveryAttemptEntity } from '../../src/webhooks/entities/webhook-delivery-attempt.entity';
import { connectV1, listen, ok } from '../mcp/mcp-clients';
import { TestApp } from '../support/test-app';
import { Receiver, deliveriesOf, eventually, insertEndpoint, sleep } from './delivery-support';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const TIMEOUT_MS = 1_000;

interface AttemptJson {
  id: string;
  attempt: number;
  attempted_at: string;
  response_status: number | null;
  error: string | null;
  duration_ms: number;
  response_excerpt: string | null;
}

describe('webhook delivery attempts: GET /v1/webhooks/{id}/deliveries, GET …/deliveries/{delivery_id}, MCP', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await TestApp.start({
      env: { WEBHOOK_ALLOW_INSECURE_URLS: 'true', WEBHOOK_RETRY_DELAYS: '1m,5m', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
    receiver = await Receiver.start();
  });
  beforeEach(() => receiver.reset());
  afterEach(() => t.clock.reset());
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  async function setup() {
    const seeded = await t.seedProject({ plan: 'indie' });
    const { endpoint } = await insertEndpoint(t, seeded.project.id, { url: receiver.url });
    return { ...seeded, endpoint };
  }

  /** Waits until the delivery's `attempts`-th attempt has been recorded and its lease released. */
  function recorded(endpointId: string, attempts: number) {
    return eventually(async () => {
      const [row] = await deliveriesOf(t, endpointId);
      expect(row).toMatchObject({ attempts, lockedUntil: null });
      expect(await t.db.manager.countBy(WebhookDeliveryAttemptEntity, { deliveryId: row.id })).toBeGreaterThanOrEqual(attempts);
      return row;
    }, 15_000);
  }

  it('logs a 500, a timeout and the success that followed, and shows them in the list, the delivery and the MCP tool', async () => {
    const { endpoint, secretKey } = await setup();
    receiver.respond(async (_req, res) => {
      await sleep(20);
      res.writeHead(500, { 'content-type': 'text/plain' }).end('boom: database down');
    });
    await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'ada@example.com' }).expect(201);
    const first = await recorded(endpoint.id, 1);
    const firstAt = first.lastAttemptAt!.toISOString();

    receiver.respond(async (_req, res) => {
      await sleep(TIMEOUT_MS + 500);
      res.writeHead(200).end('too late');
    });
    t.clock.advance(MINUTE);
    await t.drainJobs();
    await recorded(endpoint.id, 2);

    receiver.answer(200, '{"received":true}');
    t.clock.advance(5 * MINUTE);
    await t.drainJobs();
    const delivered = await eventually(async () => {
      const [row] = await deliveriesOf(t, endpoint.id);
      expect(row.status).toBe('delivered');
      return row;
    });
    expect(receiver.requests).toHaveLength(3);

    const list = await t.api.as(secretKey).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(200);
    expect(list.body.data).toHaveLength(1);
    const [entry] = list.body.data;
    expect(entry).toMatchObject({
      id: delivered.id,
      status: 'delivered',
      attempts: 3,
      response_status: 200,
      response_excerpt: '{"received":true}',
      last_error: null,
    });
    const log = entry.attempt_log as AttemptJson[];
    expect(
      log.map(({ attempt, response_status, error, response_excerpt }) => ({ attempt, response_status, error, response_excerpt })),
    ).toEqual([
      { attempt: 1, response_status: 500, error: 'The endpoint answered 500', response_excerpt: 'boom: database down' },
      { attempt: 2, response_status: null, error: `No answer within ${TIMEOUT_MS} ms`, response_excerpt: null },
      { attempt: 3, response_status: 200, error: null, response_excerpt: '{"received":true}' },
    ]);
    for (const attempt of log) expect(attempt.id).toMatch(/^wha_[0-9A-HJKMNP-TV-Z]{26}$/);
    // Times follow the (test) clock: the retries went when the schedule said.
    expect(log[0].attempted_at).toBe(firstAt);
    expect(new Date(log[1].attempted_at).getTime() - new Date(log[0].attempted_at).getTime()).toBeGreaterThanOrEqual(MINUTE);
    expect(new Date(log[2].attempted_at).getTime() - new Date(log[1].attempted_at).getTime()).toBeGreaterThanOrEqual(5 * MINUTE);
    expect(log[2].attempted_at).toBe(entry.last_attempt_at);
    expect(log[0].duration_ms).toBeGreaterThanOrEqual(15);
    expect(log[1].duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(log[1].duration_ms).toBeLessThan(TIMEOUT_MS + 500);
    expect(log[2].duration_ms).toBeGreaterThanOrEqual(0);
    expect(log[2].duration_ms).toBe(entry.duration_ms);

    const one = await t.api.as(secretKey).get(`/v1/webhooks/${endpoint.id}/deliveries/${delivered.id}`).expect(200);
    expect(one.body.data).toEqual(entry);

    const url = `${await listen(t)}/mcp`;
    const agent = await connectV1(url, secretKey);
    try {
      const answer = await ok(agent, 'list_webhook_deliveries', { id: endpoint.id });
      expect(answer.items).toEqual([entry]);
    } finally {
      await agent.close();
    }
  });

  it('keeps the attempts of a failed schedule through retry, numbering the new schedule from 1, and keeps the newest only', async () => {
    const { endpoint, secretKey } = await setup();
    receiver.answer(503, 'maintenance');
    await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'bob@example.com' }).expect(201);
    const row = await recorded(endpoint.id, 1);
    for (const delay of [MINUTE, 5 * MINUTE]) {
      t.clock.advance(delay);
      await t.drainJobs();
    }
    await eventually(async () => expect((await deliveriesOf(t, endpoint.id))[0]).toMatchObject({ status: 'failed', attempts: 3 }));

    receiver.answer(200, 'back');
    const retried = await t.api.as(secretKey).post(`/v1/webhooks/${endpoint.id}/deliveries/${row.id}/retry`).expect(200);
    expect(retried.body.data).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(
      (retried.body.data.attempt_log as AttemptJson[]).map(({ attempt, response_status, response_excerpt }) => [
        attempt,
        response_status,
        response_excerpt,
      ]),
    ).toEqual([
      [1, 503, 'maintenance'],
      [2, 503, 'maintenance'],
      [3, 503, 'maintenance'],
      [1, 200, 'back'],
    ]);

    // Past ATTEMPTS_KEPT, the oldest go.
    for (let i = 0; i < ATTEMPTS_KEPT - 3; i += 1) {
      receiver.answer(200, `again ${i}`);
      await t.api.as(secretKey).post(`/v1/webhooks/${endpoint.id}/deliveries/${row.id}/retry`).expect(200);
    }
    const after = await t.api.as(secretKey).get(`/v1/webhooks/${endpoint.id}/deliveries/${row.id}`).expect(200);
    const log = after.body.data.attempt_log as AttemptJson[];
    expect(log).toHaveLength(ATTEMPTS_KEPT);
    expect(log.map((attempt) => attempt.response_excerpt)).toEqual([
      'maintenance',
      'maintenance',
      'back',
      ...Array.from({ length: ATTEMPTS_KEPT - 3 }, (_, i) => `again ${i}`),
    ]);
    expect(await t.db.manager.countBy(WebhookDeliveryAttemptEntity, { deliveryId: row.id })).toBe(ATTEMPTS_KEPT);
  });

  it('logs a refused connection with its reason and no status', async () => {
    const seeded = await t.seedProject({ plan: 'indie' });
    const closed = await Receiver.start();
    const url = closed.url;
    await closed.close();
    const { endpoint } = await insertEndpoint(t, seeded.project.id, { url });
    await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email: 'cy@example.com' }).expect(201);
    await recorded(endpoint.id, 1);
    const res = await t.api.as(seeded.secretKey).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(200);
    const [attempt] = res.body.data[0].attempt_log as AttemptJson[];
    expect(attempt).toMatchObject({ attempt: 1, response_status: null, response_excerpt: null });
    expect(attempt.error).toMatch(/^Could not reach the endpoint \(ECONNREFUSED/);
    expect(res.body.data[0].last_error).toBe(attempt.error);
  });

  it('retention deletes the attempts with their delivery; the delivery is out of the log after 30 days', async () => {
    const { endpoint, secretKey } = await setup();
    receiver.answer(500, 'nope');
    await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'dee@example.com' }).expect(201);
    const row = await recorded(endpoint.id, 1);
    receiver.answer(200, 'ok');
    t.clock.advance(MINUTE);
    await t.drainJobs();
    await eventually(async () => expect((await deliveriesOf(t, endpoint.id))[0].status).toBe('delivered'));
    expect(await t.db.manager.countBy(WebhookDeliveryAttemptEntity, { deliveryId: row.id })).toBe(2);

    t.clock.advance(31 * DAY);
    const gone = await t.api.as(secretKey).get(`/v1/webhooks/${endpoint.id}/deliveries/${row.id}`).expect(404);
    expect(gone.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'delivery_id' });
    expect(await t.get(DeliveryRetention).purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await deliveriesOf(t, endpoint.id)).toHaveLength(0);
    expect(await t.db.manager.countBy(WebhookDeliveryAttemptEntity, { deliveryId: row.id })).toBe(0);
  });

  it('GET …/deliveries/{delivery_id} refuses other projects, other endpoints, unknown ids and the wrong key', async () => {
    const { endpoint, secretKey, publishableKey } = await setup();
    await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'eve@example.com' }).expect(201);
    const row = await recorded(endpoint.id, 1);
    const path = `/v1/webhooks/${endpoint.id}/deliveries/${row.id}`;

    const stranger = await t.seedProject({ plan: 'indie' });
    const foreign = await t.api.as(stranger.secretKey).get(path).expect(404);
    expect(foreign.body).toMatchObject({ data: null, error: { code: 'NOT_FOUND', param: 'id' } });

    const { endpoint: sibling } = await insertEndpoint(t, row.projectId, { url: receiver.url });
    const elsewhere = await t.api.as(secretKey).get(`/v1/webhooks/${sibling.id}/deliveries/${row.id}`).expect(404);
    expect(elsewhere.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'delivery_id' });
    const unknown = await t.api
      .as(secretKey)
      .get(`/v1/webhooks/${endpoint.id}/deliveries/${newId('whd')}`)
      .expect(404);
    expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'delivery_id' });
    const malformed = await t.api.as(secretKey).get(`/v1/webhooks/${endpoint.id}/deliveries/whd_nope`).expect(404);
    expect(malformed.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'delivery_id' });

    await t.api.as(publishableKey).get(path).expect(403);
    const anonymous = await t.api.get(path).expect(401);
    expect(anonymous.body.data).toBeNull();
  });
});
