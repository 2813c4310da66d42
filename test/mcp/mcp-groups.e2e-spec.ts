import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../src/common/crypto/secret-box';
import { NotificationEntity } from '../../src/notifications/entities/notification.entity';
import { WaitlistSignupEntity } from '../../src/waitlist/entities/waitlist-signup.entity';
import { WebhookEndpointEntity } from '../../src/webhooks/entities/webhook-endpoint.entity';
import { TestApp, type SeededProject } from '../support/test-app';
import { Receiver, insertEndpoint } from '../webhooks/delivery-support';
import { type AgentClient, connectV1, connectV2, failure, listen, ok } from './mcp-clients';

/** The waitlist, feedback, notifications, contacts and webhook tools: each one's success and a failure. */
describe('MCP tools of the other groups', () => {
  let t: TestApp;
  let url: string;
  let owner: SeededProject;
  let stranger: SeededProject;
  let agent: AgentClient;
  let receiver: Receiver;

  beforeAll(async () => {
    t = await TestApp.start({ env: { WEBHOOK_ALLOW_INSECURE_URLS: 'true' } });
    url = `${await listen(t)}/mcp`;
    receiver = await Receiver.start();
    owner = await t.seedProject({ plan: 'indie' });
    stranger = await t.seedProject({ plan: 'indie' });
    agent = await connectV1(url, owner.secretKey);
    for (const email of ['ada@example.com', 'bob@example.com', 'cy@example.com']) {
      await t.api.as(owner.secretKey).post('/v1/waitlist/signups').send({ email }).expect(201);
    }
  });
  afterAll(async () => {
    await agent.close();
    await receiver.close();
    await t.close();
  });

  const statusOf = async (email: string) =>
    (await t.db.manager.findOneByOrFail(WaitlistSignupEntity, { projectId: owner.project.id, email })).status;

  describe('waitlist', () => {
    it('lists signups page by page and refuses a limit over 100', async () => {
      const page = await ok(agent, 'list_waitlist_signups', { limit: 2 });
      expect((page.items as { email: string }[]).map((item) => item.email)).toEqual(['ada@example.com', 'bob@example.com']);
      expect(page.next_cursor).toEqual(expect.any(String));
      expect(await failure(agent, 'list_waitlist_signups', { limit: 101 })).toMatchObject({ code: 'VALIDATION_ERROR', param: 'limit' });
    });

    it('answers the stats, and refuses unknown arguments', async () => {
      expect(await ok(agent, 'get_waitlist_stats')).toMatchObject({ total_signups: 3 });
      expect(await failure(agent, 'get_waitlist_stats', { since: 'x' })).toMatchObject({ code: 'VALIDATION_ERROR', param: 'since' });
    });

    it('previews an invite wave without inviting anyone, then invites with confirm: true', async () => {
      const preview = await ok(agent, 'invite_waitlist_signups', { count: 2 });
      expect(preview).toEqual({
        requires_confirmation: true,
        preview: {
          action: 'invite',
          invite_count: 2,
          first: [
            { email: 'ada@example.com', position: 1 },
            { email: 'bob@example.com', position: 2 },
          ],
          skipped_because: null,
        },
      });
      expect(await statusOf('ada@example.com')).toBe('waiting');
      expect(await ok(agent, 'invite_waitlist_signups', { count: 2, confirm: true })).toMatchObject({ invited_count: 2 });
      expect(await statusOf('ada@example.com')).toBe('invited');
      expect(await statusOf('cy@example.com')).toBe('waiting');
    });

    it('gates invites on the plan as REST does', async () => {
      const free = await t.seedProject({ plan: 'free' });
      const client = await connectV2(url, free.secretKey, { modern: true });
      try {
        expect(await failure(client, 'invite_waitlist_signups', { count: 1 })).toMatchObject({ code: 'PLAN_UPGRADE_REQUIRED' });
      } finally {
        await client.close();
      }
    });
  });

  describe('feedback', () => {
    it('lists and gets feedback; another project’s is NOT_FOUND', async () => {
      const sent = await t.api
        .as(owner.publishableKey)
        .post('/v1/feedback')
        .send({ feedback_text: 'The export button is broken on Safari', email: 'ada@example.com' })
        .expect(201);
      const list = await ok(agent, 'list_feedback');
      expect(list).toMatchObject({
        next_cursor: null,
        items: [expect.objectContaining({ feedback_id: sent.body.data.feedback_id, has_email: true })],
      });
      expect(await ok(agent, 'get_feedback', { id: sent.body.data.feedback_id })).toMatchObject({ email: 'ada@example.com' });
      const theirs = await t.api
        .as(stranger.publishableKey)
        .post('/v1/feedback')
        .send({ feedback_text: 'Not for you to read' })
        .expect(201);
      expect(await failure(agent, 'get_feedback', { id: theirs.body.data.feedback_id })).toMatchObject({ code: 'NOT_FOUND' });
      expect(await failure(agent, 'list_feedback', { limit: 0 })).toMatchObject({ code: 'VALIDATION_ERROR', param: 'limit' });
    });
  });

  describe('notifications', () => {
    const countSent = () => t.db.manager.countBy(NotificationEntity, { projectId: owner.project.id });

    it('previews a send without sending, then sends with confirm: true and lists it', async () => {
      const input = { user_id: 'u_1', title: 'Your export is ready', body: 'Download it from Reports.' };
      const preview = await ok(agent, 'send_notification', input);
      expect(preview).toMatchObject({
        requires_confirmation: true,
        preview: { action: 'send', target: 'user', user_id: 'u_1', reachable: 1 },
      });
      expect(await countSent()).toBe(0);
      const sent = await ok(agent, 'send_notification', { ...input, confirm: true, idempotency_key: 'send-1' });
      expect(sent).toMatchObject({ title: 'Your export is ready' });
      expect(await countSent()).toBe(1);
      expect(await ok(agent, 'send_notification', { ...input, confirm: true, idempotency_key: 'send-1' })).toEqual(sent);
      expect(await countSent()).toBe(1);
      const list = await ok(agent, 'list_notifications', { limit: 5 });
      expect(list).toMatchObject({ next_cursor: null, items: [expect.objectContaining({ id: sent.id })] });
    });

    it('refuses user_id with audience all, in the preview too, sending nothing', async () => {
      const input = { user_id: 'u_1', audience: 'all', title: 'Hi', body: 'There' };
      expect(await failure(agent, 'send_notification', input)).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(await failure(agent, 'send_notification', { ...input, confirm: true })).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(await failure(agent, 'list_notifications', { status: 'maybe' })).toMatchObject({ code: 'VALIDATION_ERROR', param: 'status' });
    });

    it('previews an audience, and refuses one without a group', async () => {
      expect(await ok(agent, 'preview_notification_audience', { emails: ['nobody@example.com'] })).toMatchObject({
        people: 1,
        reachable: 0,
        unreachable: 1,
      });
      expect(await failure(agent, 'preview_notification_audience', {})).toMatchObject({ code: 'VALIDATION_ERROR', param: 'user_ids' });
    });
  });

  describe('contacts', () => {
    it('lists contacts and refuses an unknown stage', async () => {
      const list = await ok(agent, 'list_contacts', { limit: 10 });
      expect((list.items as { email: string }[]).map((item) => item.email)).toEqual(expect.arrayContaining(['cy@example.com']));
      expect(await failure(agent, 'list_contacts', { stage: 'vip' })).toMatchObject({ code: 'VALIDATION_ERROR', param: 'stage' });
    });
  });

  describe('webhooks', () => {
    it('replays a create with its idempotency_key from a sealed copy: the signing secret is not stored in clear', async () => {
      const input = { url: `${receiver.url}/sealed`, events: ['feedback.created'], idempotency_key: 'hook-sealed-1' };
      const created = await ok(agent, 'create_webhook', input);
      expect(created.signing_secret).toMatch(/^whsec_/);
      expect(await ok(agent, 'create_webhook', input)).toEqual(created);
      const [record]: { response_sealed: boolean; response_body: string }[] = await t.db.manager.query(
        "SELECT response_sealed, response_body FROM idempotency_records WHERE key = 'hook-sealed-1'",
      );
      expect(record.response_sealed).toBe(true);
      expect(record.response_body).not.toContain(created.signing_secret as string);
      expect(await ok(agent, 'delete_webhook', { id: created.id, confirm: true })).toEqual({ id: created.id, deleted: true });
    });

    it('creates, updates, tests, lists and deletes an endpoint; delete changes nothing without confirm', async () => {
      const created = await ok(agent, 'create_webhook', { url: receiver.url, events: ['feedback.created'] });
      const id = created.id as string;
      expect(await ok(agent, 'update_webhook', { id, status: 'disabled' })).toMatchObject({ id, status: 'disabled' });
      receiver.answer(202, 'accepted here');
      const tested = await ok(agent, 'test_webhook', { id });
      expect(tested).toMatchObject({
        delivered: true,
        response_status: 202,
        response_excerpt: 'accepted here',
        duration_ms: expect.any(Number),
      });
      const list = await ok(agent, 'list_webhooks');
      expect(list).toMatchObject({ next_cursor: null, limit: 2, items: [expect.objectContaining({ id })] });
      expect(await ok(agent, 'list_webhook_deliveries', { id })).toEqual({ items: [], next_cursor: null });

      const preview = await ok(agent, 'delete_webhook', { id });
      expect(preview).toMatchObject({
        requires_confirmation: true,
        preview: { action: 'delete', endpoint: { id }, pending_deliveries: 0 },
      });
      expect(await t.db.manager.countBy(WebhookEndpointEntity, { id })).toBe(1);
      expect(await ok(agent, 'delete_webhook', { id, confirm: true })).toEqual({ id, deleted: true });
      expect(await t.db.manager.countBy(WebhookEndpointEntity, { id })).toBe(0);
    });

    it('answers the REST errors: a bad URL, another project’s endpoint, a bad filter', async () => {
      expect(await failure(agent, 'create_webhook', { url: 'ftp://example.com/hook', events: ['feedback.created'] })).toMatchObject({
        code: expect.stringMatching(/INVALID_WEBHOOK_URL|VALIDATION_ERROR/),
        param: 'url',
      });
      const { endpoint } = await insertEndpoint(t, stranger.project.id, { url: 'https://hooks.example.com/theirs' });
      for (const tool of ['update_webhook', 'test_webhook', 'delete_webhook', 'list_webhook_deliveries']) {
        expect(await failure(agent, tool, { id: endpoint.id, ...(tool === 'delete_webhook' ? { confirm: true } : {}) })).toMatchObject({
          code: 'NOT_FOUND',
        });
      }
      expect(await t.db.manager.countBy(WebhookEndpointEntity, { id: endpoint.id })).toBe(1);
      const { endpoint: mine } = await insertEndpoint(t, owner.project.id, { url: 'https://hooks.example.com/mine' });
      expect(await failure(agent, 'list_webhook_deliveries', { id: mine.id, status: 'lost' })).toMatchObject({
        code: 'VALIDATION_ERROR',
        param: 'status',
      });
      expect(await failure(agent, 'list_webhooks', { limit: 1 })).toMatchObject({ code: 'VALIDATION_ERROR', param: 'limit' });
    });

    it('answers SEALED_VALUE_UNREADABLE, as REST does, for an endpoint sealed under another key', async () => {
      const { endpoint } = await insertEndpoint(t, owner.project.id, { url: `${receiver.url}/other-key` });
      await t.db.manager.update(
        WebhookEndpointEntity,
        { id: endpoint.id },
        { urlCiphertext: new SecretBox(randomBytes(32)).seal(receiver.url) },
      );
      expect(await failure(agent, 'test_webhook', { id: endpoint.id })).toMatchObject({
        code: 'SEALED_VALUE_UNREADABLE',
        remediation: expect.stringContaining('encryption:reseal'),
      });
      await t.db.manager.delete(WebhookEndpointEntity, { id: endpoint.id });
    });
  });
});
