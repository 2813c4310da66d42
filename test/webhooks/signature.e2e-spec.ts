import Stripe from 'stripe';
import { TestApp } from '../support/test-app';
import { Receiver, deliveriesOf, eventually, insertEndpoint } from './delivery-support';

// The official stripe package's verifier accepts our signatures: receivers can use it as is,
// reading our Service-Signature header where Stripe reads Stripe-Signature.
describe('webhook signatures verified with stripe.webhooks.constructEvent', () => {
  let t: TestApp;
  let receiver: Receiver;
  const stripe = new Stripe('sk_test_unused');

  beforeAll(async () => {
    t = await TestApp.start({ env: { WEBHOOK_ALLOW_INSECURE_URLS: 'true' } });
    receiver = await Receiver.start();
  });
  beforeEach(() => receiver.reset());
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('accepts a delivered event with the endpoint secret and rejects a wrong secret or a changed body', async () => {
    const { project, secretKey } = await t.seedProject({ plan: 'indie' });
    const { endpoint, secret } = await insertEndpoint(t, project.id, { url: receiver.url });
    await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'sig@example.com' }).expect(201);
    await receiver.waitFor(1);
    const [request] = receiver.requests;
    const header = request.headers['service-signature'] as string;

    const event = stripe.webhooks.constructEvent(request.rawBody, header, secret);
    expect(event).toMatchObject({ id: request.json.id, type: 'waitlist.signup.created', data: { email: 'sig@example.com' } });
    const [delivery] = await eventually(async () => {
      const rows = await deliveriesOf(t, endpoint.id);
      expect(rows[0].status).toBe('delivered');
      return rows;
    });
    expect(event.id).toBe(delivery.eventId);

    expect(() => stripe.webhooks.constructEvent(request.rawBody, header, 'whsec_wrong')).toThrow(/No signatures found matching/);
    expect(() => stripe.webhooks.constructEvent(request.rawBody.replace('sig@', 'sag@'), header, secret)).toThrow(/No signatures found/);
    // The timestamp is the time of sending: receivers reject any more than 300 seconds off (stripe's default tolerance).
    const t0 = Number(/^t=(\d+),/.exec(header)![1]);
    expect(Math.abs(t0 - Date.now() / 1000)).toBeLessThan(10);
  });

  it('signs with both secrets during a rotation, so receivers holding either verify', async () => {
    const { project, secretKey } = await t.seedProject({ plan: 'indie' });
    const { secret } = await insertEndpoint(t, project.id, { url: receiver.url, previousSecret: 'whsec_previous_secret' });
    await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'rot@example.com' }).expect(201);
    await receiver.waitFor(1);
    const [request] = receiver.requests;
    const header = request.headers['service-signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(stripe.webhooks.constructEvent(request.rawBody, header, secret).id).toBe(request.json.id);
    expect(stripe.webhooks.constructEvent(request.rawBody, header, 'whsec_previous_secret').id).toBe(request.json.id);
  });

  it('the test route sends a signed webhook.test event that stripe verifies', async () => {
    const { project, secretKey } = await t.seedProject({ plan: 'indie' });
    const { endpoint, secret } = await insertEndpoint(t, project.id, { url: receiver.url, events: ['feedback.created'] });
    const res = await t.api.as(secretKey).post(`/v1/webhooks/${endpoint.id}/test`).expect(200);
    expect(res.body.data).toMatchObject({
      delivered: true,
      event_type: 'webhook.test',
      response_status: 200,
      response_excerpt: 'ok',
      error: null,
    });
    const [request] = receiver.requests;
    const event = stripe.webhooks.constructEvent(request.rawBody, request.headers['service-signature'] as string, secret);
    expect(event).toMatchObject({ id: res.body.data.event_id, type: 'webhook.test', data: { endpoint_id: endpoint.id } });
    expect(request.headers['service-delivery-id']).toMatch(/^whd_/);
  });
});
