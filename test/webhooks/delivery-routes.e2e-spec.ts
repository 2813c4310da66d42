import { newId } from '../../src/common/ids/ids';
import { WebhookDeliveryEntity } from '../../src/webhooks/entities/webhook-delivery.entity';
import { DeliveryRetention } from '../../src/webhooks/delivery/delivery-retention.service';
import { TestApp } from '../support/test-app';
import { Receiver, deliveriesOf, eventually, insertEndpoint } from './delivery-support';

const DAY = 24 * 60 * 60 * 1000;

describe('webhook delivery routes: log, retry, recover, test; retention', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await TestApp.start({ env: { WEBHOOK_ALLOW_INSECURE_URLS: 'true', WEBHOOK_RETRY_DELAYS: '1h', WEBHOOK_TIMEOUT_MS: '1000' } });
    receiver = await Receiver.start();
  });
  beforeEach(() => receiver.reset());
  afterEach(() => t.clock.reset());
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  async function setup(format: 'json' | 'chat_a' = 'json') {
    const seeded = await t.seedProject({ plan: 'indie' });
    const { endpoint } = await insertEndpoint(t, seeded.project.id, { url: receiver.url, format });
    return { ...seeded, endpoint };
  }

  async function settled(endpointId: string, count: number): Promise<WebhookDeliveryEntity[]> {
    return eventually(async () => {
      const rows = await deliveriesOf(t, endpointId);
      expect(rows).toHaveLength(count);
      for (const row of rows) expect(row.lockedUntil).toBeNull();
      for (const row of rows) expect(row.attempts).toBeGreaterThan(0);
      return rows;
    });
  }

  it('lists the last 30 days, newest first, with the payload sent, the answer and the next try', async () => {
    const { endpoint, secretKey } = await setup();
    receiver.answer(500, 'nope');
    await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'one@example.com' }).expect(201);
    await settled(endpoint.id, 1);
    receiver.answer(200, '{"received":true}');
    await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'two@example.com' }).expect(201);
    const rows = await eventually(async () => {
      const all = await settled(endpoint.id, 2);
      expect(all.map((row) => row.status).sort()).toEqual(['delivered', 'pending']);
      return all;
    });

    const res = await t.api.as(secretKey).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(200);
    const [newest, oldest] = res.body.data;
    expect(res.body.data).toHaveLength(2);
    expect(newest).toMatchObject({
      id: rows[1].id,
      endpoint_id: endpoint.id,
      event_id: rows[1].eventId,
      event_type: 'waitlist.signup.created',
      status: 'delivered',
      attempts: 1,
      response_status: 200,
      response_excerpt: '{"received":true}',
      last_error: null,
      next_attempt_at: null,
      payload: { id: rows[1].eventId, type: 'waitlist.signup.created', data: { email: 'two@example.com' } },
    });
    expect(newest.delivered_at).toEqual(expect.any(String));
    expect(oldest).toMatchObject({
      status: 'pending',
      response_status: 500,
      response_excerpt: 'nope',
      last_error: 'The endpoint answered 500',
    });
    // The retry is due one delay (1h here) after the attempt ended; last_attempt_at is when it started.
    const gap = new Date(oldest.next_attempt_at).getTime() - new Date(oldest.last_attempt_at).getTime();
    expect(gap).toBeGreaterThanOrEqual(60 * 60 * 1000);
    expect(gap).toBeLessThan(60 * 60 * 1000 + 1_000);
    expect(res.body.meta).toMatchObject({ has_more: false, next_cursor: null });

    const page = await t.api.as(secretKey).get(`/v1/webhooks/${endpoint.id}/deliveries?limit=1`).expect(200);
    expect(page.body.data.map((d: { id: string }) => d.id)).toEqual([rows[1].id]);
    const next = await t.api
      .as(secretKey)
      .get(`/v1/webhooks/${endpoint.id}/deliveries?limit=1&cursor=${page.body.meta.next_cursor}`)
      .expect(200);
    expect(next.body.data.map((d: { id: string }) => d.id)).toEqual([rows[0].id]);

    const pending = await t.api.as(secretKey).get(`/v1/webhooks/${endpoint.id}/deliveries?status=pending`).expect(200);
    expect(pending.body.data.map((d: { id: string }) => d.id)).toEqual([rows[0].id]);

    // Older than 30 days: out of the log, then deleted by retention.
    t.clock.advance(31 * DAY);
    expect((await t.api.as(secretKey).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(200)).body.data).toEqual([]);
    expect(await t.get(DeliveryRetention).purgeExpired()).toBeGreaterThanOrEqual(2);
    expect(await deliveriesOf(t, endpoint.id)).toHaveLength(0);
  });

  it('shows chat endpoints the chat message they were sent', async () => {
    const { endpoint, secretKey } = await setup('chat_a');
    await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'chat@example.com' }).expect(201);
    await receiver.waitFor(1);
    const line = 'New waitlist signup: chat@example.com (position 1)';
    const message = { text: line, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: line, verbatim: true } }] };
    expect(receiver.requests[0].json).toEqual(message);
    const res = await eventually(async () => {
      const r = await t.api.as(secretKey).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(200);
      expect(r.body.data[0].status).toBe('delivered');
      return r;
    });
    expect(res.body.data[0].payload).toEqual(message);
  });

  it('retry redelivers now with the same event id and answers the delivery after the attempt', async () => {
    const { endpoint, secretKey } = await setup();
    receiver.answer(502, 'bad gateway');
    await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'retry@example.com' }).expect(201);
    const [row] = await settled(endpoint.id, 1);
    expect(row.status).toBe('pending');

    receiver.answer(200, 'fixed');
    const res = await t.api.as(secretKey).post(`/v1/webhooks/${endpoint.id}/deliveries/${row.id}/retry`).expect(200);
    expect(res.body.data).toMatchObject({
      id: row.id,
      event_id: row.eventId,
      status: 'delivered',
      attempts: 1,
      response_status: 200,
      response_excerpt: 'fixed',
      next_attempt_at: null,
    });
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1].headers['service-event-id']).toBe(row.eventId);
    expect(receiver.requests[1].headers['service-delivery-id']).toBe(row.id);

    // A delivered one can be sent again too (a receiver that lost it).
    const again = await t.api.as(secretKey).post(`/v1/webhooks/${endpoint.id}/deliveries/${row.id}/retry`).expect(200);
    expect(again.body.data.status).toBe('delivered');
    expect(receiver.requests).toHaveLength(3);
  });

  it('recover requeues the failed deliveries since a time, and only those', async () => {
    const { endpoint, secretKey, project } = await setup();
    receiver.answer(500);
    await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'r1@example.com' }).expect(201);
    await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'r2@example.com' }).expect(201);
    const rows = await settled(endpoint.id, 2);
    // The schedule has one retry: move past it so both give up.
    t.clock.advance(61 * 60 * 1000);
    await t.drainJobs();
    await eventually(async () => expect((await deliveriesOf(t, endpoint.id)).every((row) => row.status === 'failed')).toBe(true));
    // One of them is older than `since`.
    await t.db.manager.update(WebhookDeliveryEntity, { id: rows[0].id }, { createdAt: new Date(Date.now() - 3 * DAY) });
    t.clock.reset();

    receiver.answer(200);
    const res = await t.api
      .as(secretKey)
      .post(`/v1/webhooks/${endpoint.id}/recover`)
      .send({ since: new Date(Date.now() - DAY).toISOString() })
      .expect(200);
    expect(res.body.data).toEqual({ requeued: 1 });
    await eventually(async () => {
      const after = await deliveriesOf(t, endpoint.id);
      expect(after.find((row) => row.id === rows[1].id)).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(after.find((row) => row.id === rows[0].id)).toMatchObject({ status: 'failed' });
    });
    const again = await t.api
      .as(secretKey)
      .post(`/v1/webhooks/${endpoint.id}/recover`)
      .send({ since: new Date(Date.now() - DAY).toISOString() })
      .expect(200);
    expect(again.body.data).toEqual({ requeued: 0 });
    expect(project.id).toMatch(/^prj_/);
  });

  it('the test route answers the failure of a broken receiver without touching the failure streak', async () => {
    const { endpoint, secretKey } = await setup();
    receiver.answer(418, 'teapot');
    const res = await t.api.as(secretKey).post(`/v1/webhooks/${endpoint.id}/test`).expect(200);
    expect(res.body.data).toMatchObject({
      delivered: false,
      response_status: 418,
      response_excerpt: 'teapot',
      error: 'The endpoint answered 418',
    });
    expect(res.body.data.payload).toMatchObject({ type: 'webhook.test', data: { endpoint_id: endpoint.id } });
    expect(await deliveriesOf(t, endpoint.id)).toHaveLength(0);
  });

  it('refuses bad input, other projects and switched-off endpoints with the error envelope', async () => {
    const { endpoint, secretKey } = await setup();
    const stranger = await t.seedProject({ plan: 'indie' });
    const notFound = await t.api.as(stranger.secretKey).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(404);
    expect(notFound.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'id' });
    await t.api.as(stranger.secretKey).post(`/v1/webhooks/${endpoint.id}/test`).expect(404);
    await t.api.as(secretKey).get('/v1/webhooks/we_nope/deliveries').expect(404);
    const noDelivery = await t.api
      .as(secretKey)
      .post(`/v1/webhooks/${endpoint.id}/deliveries/${newId('whd')}/retry`)
      .expect(404);
    expect(noDelivery.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'delivery_id' });

    const badSince = await t.api.as(secretKey).post(`/v1/webhooks/${endpoint.id}/recover`).send({ since: 'yesterday' }).expect(400);
    expect(badSince.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'since' });
    await t.api.as(secretKey).get(`/v1/webhooks/${endpoint.id}/deliveries?status=lost`).expect(400);
    await t.api.as(stranger.publishableKey).get(`/v1/webhooks/${endpoint.id}/deliveries`).expect(403);

    const off = await insertEndpoint(t, stranger.project.id, { url: receiver.url, status: 'disabled' });
    const refused = await t.api
      .as(stranger.secretKey)
      .post(`/v1/webhooks/${off.endpoint.id}/recover`)
      .send({ since: new Date().toISOString() })
      .expect(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'id' });
    expect(refused.body.error.remediation).toMatch(/re-enable/);
  });
});
