import { SecretBox } from '../../src/common/crypto/secret-box';
import { EVENT_TYPES } from '../../src/events/event-catalog';
import { WebhookEndpointEntity } from '../../src/webhooks/entities/webhook-endpoint.entity';
import { openEndpoint, WebhookSecretBox } from '../../src/webhooks/endpoints/endpoint-secrets';
import { WebhookHostResolver } from '../../src/webhooks/url-policy/host-resolver.service';
import { SeededProject, TestApp } from '../support/test-app';

const ENDPOINT_ID = /^we_[0-9A-HJKMNP-TV-Z]{26}$/;
const SECRET = /^whsec_[A-Za-z0-9_-]{32}$/;
const URL_A = 'https://hooks.example.com/launch/receive?token=tok_s3cr3t_a1b2';
const SLACK = 'https://hooks.slack.com/services/T0001ABC/B0002DEF/abcdEFGH1234wxyz';
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);

describe('webhook endpoints', () => {
  let t: TestApp;
  let indie: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start();
    // Every name resolves to a public address, unless a test says otherwise.
    jest.spyOn(t.get(WebhookHostResolver), 'resolve').mockImplementation(async () => ['93.184.215.14']);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.reset();
    indie = await t.seedProject({ plan: 'indie' });
  });

  const api = (key = indie.secretKey) => t.api.as(key);
  const create = (body: Record<string, unknown>, key = indie.secretKey) => api(key).post('/v1/webhooks').send(body);
  const rowOf = (id: string) => t.db.manager.findOneByOrFail(WebhookEndpointEntity, { id });

  describe('POST /v1/webhooks', () => {
    it('creates an endpoint and shows its signing secret once', async () => {
      const res = await create({ url: URL_A, events: ['feedback.created', 'waitlist.signup.created'] }).expect(201);
      expect(res.body).toEqual({
        data: {
          id: expect.stringMatching(ENDPOINT_ID),
          url: 'https://hooks.example.com/…/a1b2',
          events: ['feedback.created', 'waitlist.signup.created'],
          format: 'json',
          status: 'enabled',
          disabled_reason: null,
          disabled_at: null,
          consecutive_failures: 0,
          created_at: ISO,
          updated_at: ISO,
          signing_secret: expect.stringMatching(SECRET),
        },
        error: null,
      });
      const { id, signing_secret: secret } = res.body.data;
      for (const path of [`/v1/webhooks/${id}`, '/v1/webhooks']) {
        const text = (await api().get(path).expect(200)).text;
        expect(text).not.toContain(secret);
        expect(text).not.toContain('tok_s3cr3t');
        expect(text).not.toContain('signing_secret');
      }
    });

    it('stores the URL and the secret sealed, never in plain text', async () => {
      const { id, signing_secret: secret } = (await create({ url: SLACK, events: ['*'], format: 'chat_a' }).expect(201)).body.data;
      const [raw]: Record<string, unknown>[] = await t.db.manager.query('SELECT * FROM webhook_endpoints WHERE id = $1', [id]);
      const dump = JSON.stringify(raw);
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain('abcdEFGH1234wxyz');
      expect(dump).not.toContain('T0001ABC');
      expect(raw.url_masked).toBe('https://hooks.slack.com/…/wxyz');
      expect(raw.url_ciphertext).toMatch(/^v1\./);
      // The delivery side opens them with the configured key.
      const opened = openEndpoint(t.get(WebhookSecretBox), await rowOf(id), t.clock.now());
      expect(opened).toEqual({ url: SLACK, secrets: [secret] });
      // Another key cannot.
      const row = await rowOf(id);
      expect(() => openEndpoint(new SecretBox(Buffer.alloc(32, 7)), row, t.clock.now())).toThrow();
    });

    it('subscribes to every type with ["*"], and drops duplicates', async () => {
      expect((await create({ url: URL_A, events: ['*'] }).expect(201)).body.data.events).toEqual(['*']);
      const dup = await create({ url: URL_A, events: ['feedback.created', 'feedback.created'] }).expect(201);
      expect(dup.body.data.events).toEqual(['feedback.created']);
    });

    it.each([
      ['an unknown type', { url: URL_A, events: ['feedback.created', 'waitlist.signup.created', 'feedback.deleted'] }, 'events.2'],
      ['no events', { url: URL_A, events: [] }, 'events'],
      ['"*" with types', { url: URL_A, events: ['*', 'feedback.created'] }, 'events'],
      ['events as a string', { url: URL_A, events: 'feedback.created' }, 'events'],
      ['a number in events', { url: URL_A, events: [3] }, 'events'],
      ['no url', { events: ['*'] }, 'url'],
      ['an unknown format', { url: URL_A, events: ['*'], format: 'xml' }, 'format'],
      ['an unknown field', { url: URL_A, events: ['*'], secret: 'mine' }, 'secret'],
    ])('refuses %s with VALIDATION_ERROR on its param', async (_what, body, param) => {
      const res = await create(body).expect(400);
      expect(res.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param } });
      expect(await t.db.manager.count(WebhookEndpointEntity, { where: { projectId: indie.project.id } })).toBe(0);
    });

    it('answers PLAN_UPGRADE_REQUIRED on Free', async () => {
      const free = await t.seedProject({ plan: 'free' });
      const res = await create({ url: URL_A, events: ['*'] }, free.secretKey).expect(403);
      expect(res.body.error).toMatchObject({ code: 'PLAN_UPGRADE_REQUIRED', message: expect.stringContaining('indie') });
      const list = await api(free.secretKey).get('/v1/webhooks').expect(200);
      expect(list.body.data).toMatchObject({ endpoints: [], limit: 0 });
    });

    it('answers WEBHOOK_LIMIT_REACHED at the plan limit (Indie 2, Builder 5)', async () => {
      await create({ url: URL_A, events: ['*'] }).expect(201);
      await create({ url: URL_A, events: ['*'] }).expect(201);
      const res = await create({ url: URL_A, events: ['*'] }).expect(403);
      expect(res.body.error).toMatchObject({
        code: 'WEBHOOK_LIMIT_REACHED',
        message: 'The indie plan allows 2 webhook endpoints; this project has 2.',
      });
      const builder = await t.seedProject({ plan: 'builder' });
      for (let i = 0; i < 5; i += 1) await create({ url: URL_A, events: ['*'] }, builder.secretKey).expect(201);
      expect((await create({ url: URL_A, events: ['*'] }, builder.secretKey).expect(403)).body.error.code).toBe('WEBHOOK_LIMIT_REACHED');
    });

    it('lets only one of two concurrent creates take the last place', async () => {
      await create({ url: URL_A, events: ['*'] }).expect(201);
      const answers = await Promise.all([create({ url: URL_A, events: ['*'] }), create({ url: URL_A, events: ['*'] })]);
      expect(answers.map((res) => res.status).sort()).toEqual([201, 403]);
      expect(await t.db.manager.count(WebhookEndpointEntity, { where: { projectId: indie.project.id } })).toBe(2);
    });

    it('replays the first answer for the same Idempotency-Key, secret included', async () => {
      const body = { url: URL_A, events: ['*'] };
      const first = await create(body).set('Idempotency-Key', 'wh-create-1').expect(201);
      const replay = await create(body).set('Idempotency-Key', 'wh-create-1').expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(first.body);
      expect(await t.db.manager.count(WebhookEndpointEntity, { where: { projectId: indie.project.id } })).toBe(1);
      const conflict = await create({ ...body, events: ['feedback.created'] })
        .set('Idempotency-Key', 'wh-create-1')
        .expect(409);
      expect(conflict.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    });

    it('needs the secret key', async () => {
      expect(
        (
          await t.api
            .post('/v1/webhooks')
            .send({ url: URL_A, events: ['*'] })
            .expect(401)
        ).body.error.code,
      ).toBe('MISSING_AUTH');
      const res = await create({ url: URL_A, events: ['*'] }, indie.publishableKey).expect(403);
      expect(res.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
    });
  });

  describe('GET /v1/webhooks', () => {
    it('lists endpoints oldest first, with the limit and every subscribable event', async () => {
      const a = (await create({ url: URL_A, events: ['feedback.created'] }).expect(201)).body.data;
      t.clock.advance(1000);
      const b = (await create({ url: SLACK, events: ['*'], format: 'chat_a' }).expect(201)).body.data;
      const res = await api().get('/v1/webhooks').expect(200);
      expect(res.body.data.endpoints.map((e: { id: string }) => e.id)).toEqual([a.id, b.id]);
      expect(res.body.data.endpoints[1]).toMatchObject({ url: 'https://hooks.slack.com/…/wxyz', format: 'chat_a' });
      expect(res.body.data.limit).toBe(2);
      expect(res.body.data.events.map((e: { type: string }) => e.type)).toEqual(EVENT_TYPES);
      expect(res.body.data.events[0]).toEqual({ type: EVENT_TYPES[0], description: expect.any(String) });
      const other = await t.seedProject({ plan: 'indie' });
      expect((await api(other.secretKey).get('/v1/webhooks').expect(200)).body.data.endpoints).toEqual([]);
    });
  });

  describe('GET, PATCH, DELETE, rotate of another project', () => {
    it('answers NOT_FOUND for another project, an unknown and a malformed id', async () => {
      const { id } = (await create({ url: URL_A, events: ['*'] }).expect(201)).body.data;
      const other = await t.seedProject({ plan: 'indie' });
      for (const target of [id, 'we_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', 'nope']) {
        const calls = [
          api(other.secretKey).get(`/v1/webhooks/${target}`),
          api(other.secretKey).patch(`/v1/webhooks/${target}`).send({ status: 'disabled' }),
          api(other.secretKey).delete(`/v1/webhooks/${target}`),
          api(other.secretKey).post(`/v1/webhooks/${target}/rotate-secret`),
        ];
        for (const res of await Promise.all(calls)) expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'id' });
      }
      expect((await rowOf(id)).status).toBe('enabled');
    });
  });

  describe('PATCH /v1/webhooks/{id}', () => {
    it('changes events and the URL, re-sealed and re-masked', async () => {
      const { id } = (await create({ url: URL_A, events: ['*'] }).expect(201)).body.data;
      t.clock.advance(5000);
      const res = await api()
        .patch(`/v1/webhooks/${id}`)
        .send({ url: SLACK, format: 'chat_a', events: ['changelog.entry.published'] })
        .expect(200);
      expect(res.body.data).toMatchObject({
        url: 'https://hooks.slack.com/…/wxyz',
        format: 'chat_a',
        events: ['changelog.entry.published'],
      });
      expect(res.body.data.updated_at).not.toBe(res.body.data.created_at);
      const row = await rowOf(id);
      expect(row.urlCiphertext).not.toContain('hooks.slack.com');
      expect(t.get(WebhookSecretBox).open(row.urlCiphertext)).toBe(SLACK);
    });

    it('checks a format change against the stored URL', async () => {
      const { id } = (await create({ url: URL_A, events: ['*'] }).expect(201)).body.data;
      const res = await api().patch(`/v1/webhooks/${id}`).send({ format: 'chat_b' }).expect(422);
      expect(res.body.error).toMatchObject({
        code: 'INVALID_WEBHOOK_URL',
        param: 'url',
        message: expect.stringContaining('Discord-style'),
      });
      expect((await rowOf(id)).format).toBe('json');
    });

    it('refuses unknown events and statuses', async () => {
      const { id } = (await create({ url: URL_A, events: ['*'] }).expect(201)).body.data;
      expect(
        (
          await api()
            .patch(`/v1/webhooks/${id}`)
            .send({ events: ['feedback.created', 'x'] })
            .expect(400)
        ).body.error.param,
      ).toBe('events.1');
      expect((await api().patch(`/v1/webhooks/${id}`).send({ status: 'paused' }).expect(400)).body.error.param).toBe('status');
      for (const field of ['url', 'events', 'format', 'status']) {
        const res = await api()
          .patch(`/v1/webhooks/${id}`)
          .send({ [field]: null })
          .expect(400);
        expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: field });
      }
    });

    it('switches off by hand, and re-enables clearing the failure count and reason', async () => {
      const { id } = (await create({ url: URL_A, events: ['*'] }).expect(201)).body.data;
      const off = await api().patch(`/v1/webhooks/${id}`).send({ status: 'disabled' }).expect(200);
      expect(off.body.data).toMatchObject({ status: 'disabled', disabled_reason: 'disabled by the owner', disabled_at: ISO });
      // As the delivery side leaves it after 20 failures in a row.
      await t.db.manager.update(
        WebhookEndpointEntity,
        { id },
        { consecutiveFailures: 20, disabledReason: '20 deliveries failed in a row' },
      );
      const again = await api().patch(`/v1/webhooks/${id}`).send({ status: 'disabled' }).expect(200);
      expect(again.body.data.disabled_reason).toBe('20 deliveries failed in a row');
      const on = await api().patch(`/v1/webhooks/${id}`).send({ status: 'enabled' }).expect(200);
      expect(on.body.data).toMatchObject({ status: 'enabled', disabled_reason: null, disabled_at: null, consecutive_failures: 0 });
      expect(await rowOf(id)).toMatchObject({ status: 'enabled', consecutiveFailures: 0, disabledReason: null });
    });
  });

  describe('POST /v1/webhooks/{id}/rotate-secret', () => {
    it('shows a new secret once and keeps the old one signing for 24 hours', async () => {
      t.clock.freeze('2026-11-20T10:00:00.000Z');
      const created = (await create({ url: URL_A, events: ['*'] }).expect(201)).body.data;
      const res = await api().post(`/v1/webhooks/${created.id}/rotate-secret`).expect(200);
      expect(res.body.data).toMatchObject({
        id: created.id,
        signing_secret: expect.stringMatching(SECRET),
        previous_secret_valid_until: '2026-11-21T10:00:00.000Z',
      });
      const rotated = res.body.data.signing_secret;
      expect(rotated).not.toBe(created.signing_secret);
      const box = t.get(WebhookSecretBox);
      expect(openEndpoint(box, await rowOf(created.id), t.clock.now()).secrets).toEqual([rotated, created.signing_secret]);
      t.clock.advance(24 * 3600_000);
      expect(openEndpoint(box, await rowOf(created.id), t.clock.now()).secrets).toEqual([rotated]);
      expect((await api().get(`/v1/webhooks/${created.id}`).expect(200)).text).not.toContain(rotated);
    });
  });

  describe('DELETE /v1/webhooks/{id}', () => {
    it('deletes the endpoint and its deliveries', async () => {
      const { id } = (await create({ url: URL_A, events: ['*'] }).expect(201)).body.data;
      const now = t.clock.now();
      await t.db.manager.query('INSERT INTO events (id, project_id, type, data, created_at) VALUES ($1, $2, $3, $4, $5)', [
        'evt_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
        indie.project.id,
        'feedback.created',
        '{}',
        now,
      ]);
      await t.db.manager.query(
        `INSERT INTO webhook_deliveries (id, project_id, endpoint_id, event_id, event_type, status, next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, 'feedback.created', 'pending', $5, $5)`,
        ['whd_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', indie.project.id, id, 'evt_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', now],
      );
      expect((await api().delete(`/v1/webhooks/${id}`).expect(200)).body.data).toEqual({ id, deleted: true });
      expect((await api().get(`/v1/webhooks/${id}`).expect(404)).body.error.code).toBe('NOT_FOUND');
      const [{ count }] = await t.db.manager.query('SELECT COUNT(*)::int AS count FROM webhook_deliveries WHERE endpoint_id = $1', [id]);
      expect(count).toBe(0);
      // The freed place can be taken again.
      await create({ url: URL_A, events: ['*'] }).expect(201);
    });
  });
});
