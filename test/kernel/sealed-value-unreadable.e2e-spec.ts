import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../src/common/crypto/secret-box';
import { NotificationSigningSecretEntity } from '../../src/notifications/entities/notification-signing-secret.entity';
import { WebhookEndpointEntity } from '../../src/webhooks/entities/webhook-endpoint.entity';
import { userHashOf } from '../support/notification-seed';
import { TestApp } from '../support/test-app';
import { Receiver, deliveriesOf, endpointRow, eventually, insertEndpoint } from '../webhooks/delivery-support';

/** A box under a key this app does not have: what a row sealed before a key change looks like. */
const otherBox = new SecretBox(randomBytes(32));

describe('a stored secret the server cannot open', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await TestApp.start({ env: { WEBHOOK_ALLOW_INSECURE_URLS: 'true', WEBHOOK_RETRY_DELAYS: '1h', WEBHOOK_TIMEOUT_MS: '2000' } });
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  /** An endpoint whose URL was sealed under another key. */
  async function unreadableEndpoint(projectId: string): Promise<WebhookEndpointEntity> {
    const { endpoint } = await insertEndpoint(t, projectId, { url: receiver.url });
    await t.db.manager.update(WebhookEndpointEntity, { id: endpoint.id }, { urlCiphertext: otherBox.seal(receiver.url) });
    return endpoint;
  }

  function expectUnreadable(body: { data: unknown; error: Record<string, unknown> }): void {
    expect(body.data).toBeNull();
    expect(body.error).toMatchObject({
      code: 'SEALED_VALUE_UNREADABLE',
      message: expect.stringContaining('ENCRYPTION_KEY'),
      remediation: expect.stringContaining('encryption:reseal'),
    });
  }

  describe('POST /v1/webhooks/{id}/test', () => {
    it('answers 503 SEALED_VALUE_UNREADABLE, not 500, and sends nothing', async () => {
      const { project, secretKey } = await t.seedProject({ plan: 'indie' });
      const endpoint = await unreadableEndpoint(project.id);
      const res = await t.api.as(secretKey).post(`/v1/webhooks/${endpoint.id}/test`).expect(503);
      expectUnreadable(res.body);
      expect(receiver.requests).toHaveLength(0);
    });

    it('a damaged value (not sealed at all) answers the same', async () => {
      const { project, secretKey } = await t.seedProject({ plan: 'indie' });
      const { endpoint } = await insertEndpoint(t, project.id, { url: receiver.url });
      await t.db.manager.update(WebhookEndpointEntity, { id: endpoint.id }, { secretCiphertext: 'whsec_in_clear' });
      expectUnreadable((await t.api.as(secretKey).post(`/v1/webhooks/${endpoint.id}/test`).expect(503)).body);
    });
  });

  describe('PATCH /v1/webhooks/{id}', () => {
    it('a format change, which re-checks the stored URL, answers 503 and changes nothing', async () => {
      const { project, secretKey } = await t.seedProject({ plan: 'indie' });
      const endpoint = await unreadableEndpoint(project.id);
      const res = await t.api.as(secretKey).patch(`/v1/webhooks/${endpoint.id}`).send({ format: 'chat_a' }).expect(503);
      expectUnreadable(res.body);
      expect((await endpointRow(t, endpoint.id)).format).toBe('json');
      // What needs no sealed value still works: listing shows the masked URL.
      const list = await t.api.as(secretKey).get('/v1/webhooks').expect(200);
      expect(list.body.data.endpoints.map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
    });
  });

  describe('a bell call checked with user_hash', () => {
    it('answers 503 SEALED_VALUE_UNREADABLE when the signing secret cannot be opened', async () => {
      const { project, secretKey, publishableKey } = await t.seedProject({ plan: 'indie' });
      const created = await t.api.as(secretKey).post('/v1/notifications/signing-secret').expect(201);
      const secret: string = created.body.data.signing_secret;
      await t.db.manager.update(NotificationSigningSecretEntity, { projectId: project.id }, { secretCiphertext: otherBox.seal(secret) });
      const res = await t.api
        .as(publishableKey)
        .get('/v1/notifications/unread/count?user_id=ada')
        .set('X-Service-User-Hash', userHashOf('ada', secret))
        .expect(503);
      expectUnreadable(res.body);
      // A secret-key call needs no hash, so it does not depend on the sealed secret.
      await t.api.as(secretKey).get('/v1/notifications/unread/count?user_id=ada').expect(200);
    });
  });

  describe('webhook delivery in the worker', () => {
    it('records a clear failure on the delivery, retries on the schedule, spares the failure streak, and delivers the rest', async () => {
      receiver.reset();
      const { project, secretKey } = await t.seedProject({ plan: 'indie' });
      const broken = await unreadableEndpoint(project.id);
      const { endpoint: healthy } = await insertEndpoint(t, project.id, { url: receiver.url });
      await t.api.as(secretKey).post('/v1/waitlist/signups').send({ email: 'sealed@example.com' }).expect(201);

      await receiver.waitFor(1);
      const [failed] = await eventually(async () => {
        const rows = await deliveriesOf(t, broken.id);
        expect(rows).toHaveLength(1);
        expect(rows[0].attempts).toBe(1);
        expect(rows[0].lockedUntil).toBeNull();
        return rows;
      });
      expect(failed).toMatchObject({ status: 'pending', responseStatus: null, lastError: expect.stringContaining('ENCRYPTION_KEY') });
      // Next try on the schedule (1h here), not at once: a wrong key does not spin the worker.
      expect(failed.nextAttemptAt.getTime() - t.clock.now().getTime()).toBeGreaterThan(50 * 60_000);
      // Not the receiver's fault: the endpoint's streak stays clean.
      expect((await endpointRow(t, broken.id)).consecutiveFailures).toBe(0);
      await eventually(async () => expect((await deliveriesOf(t, healthy.id)).map((row) => row.status)).toEqual(['delivered']));
    });
  });
});
