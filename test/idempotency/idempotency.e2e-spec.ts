import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../src/common/crypto/secret-box';
import { ContactEntity } from '../../src/contacts/entities/contact.entity';
import { IdempotencyRecordEntity } from '../../src/idempotency/entities/idempotency-record.entity';
import { IdempotencyStore } from '../../src/idempotency/idempotency-store.service';
import { PURGE_LOCK_NAME } from '../../src/idempotency/idempotency.queries';
import { WaitlistSignupEntity } from '../../src/waitlist/entities/waitlist-signup.entity';
import { WebhookEndpointEntity } from '../../src/webhooks/entities/webhook-endpoint.entity';
import { WebhookHostResolver } from '../../src/webhooks/url-policy/host-resolver.service';
import { ProbeController, ProbeModule } from '../support/probe.module';
import { SeededProject, TestApp } from '../support/test-app';

describe('Idempotency-Key', () => {
  let t: TestApp;
  let project: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start({ imports: [ProbeModule] });
  });
  afterAll(() => t.close());
  // A project (and so API keys, which scope Idempotency-Key) of its own for every test.
  beforeEach(async () => {
    project = await t.seedProject();
  });

  describe('POST /v1/analytics/identify', () => {
    it('replays the identical response and creates nothing on a retry', async () => {
      const body = { user_id: 'u_idem', email: 'idem@example.com', details: { plan: 'pro' } };
      const first = await t.api
        .as(project.secretKey)
        .post('/v1/analytics/identify')
        .set('Idempotency-Key', 'identify-1')
        .send(body)
        .expect(200);
      const replay = await t.api
        .as(project.secretKey)
        .post('/v1/analytics/identify')
        .set('Idempotency-Key', 'identify-1')
        .send(body)
        .expect(200);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers['x-request-id']).toBe(first.headers['x-request-id']);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      const contact = await t.db.manager.findOneByOrFail(ContactEntity, { projectId: project.project.id, userId: 'u_idem' });
      expect(contact.updatedAt.toISOString()).toBe(first.body.data.updated_at);
    });

    it('answers IDEMPOTENCY_CONFLICT for the same key with a different body', async () => {
      await t.api
        .as(project.secretKey)
        .post('/v1/analytics/identify')
        .set('Idempotency-Key', 'identify-2')
        .send({ user_id: 'a', email: 'a@example.com' })
        .expect(200);
      const res = await t.api
        .as(project.secretKey)
        .post('/v1/analytics/identify')
        .set('Idempotency-Key', 'identify-2')
        .send({ user_id: 'b', email: 'b@example.com' })
        .expect(409);
      expect(res.body.error).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', param: 'Idempotency-Key' });
      expect(await t.db.manager.count(ContactEntity, { where: { projectId: project.project.id, userId: 'b' } })).toBe(0);
    });

    it('validates the key: 1 to 80 printable ASCII characters', async () => {
      for (const key of ['k'.repeat(81), 'tab\tkey']) {
        const res = await t.api
          .unchecked()
          .as(project.secretKey)
          .post('/v1/analytics/identify')
          .set('Idempotency-Key', key)
          .send({ user_id: 'v', email: 'v@example.com' });
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'Idempotency-Key' });
      }
      await t.api
        .as(project.secretKey)
        .post('/v1/analytics/identify')
        .set('Idempotency-Key', 'k'.repeat(80))
        .send({ user_id: 'v', email: 'v@example.com' })
        .expect(200);
    });

    it('scopes keys per API key', async () => {
      const other = await t.seedProject();
      const a = await t.api
        .as(project.secretKey)
        .post('/v1/analytics/identify')
        .set('Idempotency-Key', 'shared')
        .send({ user_id: 's', email: 's@example.com' })
        .expect(200);
      const b = await t.api
        .as(other.secretKey)
        .post('/v1/analytics/identify')
        .set('Idempotency-Key', 'shared')
        .send({ user_id: 's', email: 's@example.com' })
        .expect(200);
      expect(b.body.data.id).not.toBe(a.body.data.id);
    });
  });

  describe('POST /v1/waitlist/signups', () => {
    it('replays the signup byte for byte with its headers, and records it with the signup', async () => {
      const signUp = () =>
        t.api.as(project.publishableKey).post('/v1/waitlist/signups').set('Idempotency-Key', 'signup-bytes').send({ email: 'bytes@x.io' });
      const first = await signUp().expect(201);
      const replay = await signUp().expect(201);
      expect(replay.text).toBe(first.text);
      for (const header of ['content-type', 'etag', 'x-request-id', 'content-length']) {
        expect(replay.headers[header]).toBe(first.headers[header]);
      }
      expect(first.headers.etag).toMatch(/^W\/"/);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      const signups = await t.db.manager.countBy(WaitlistSignupEntity, { projectId: project.project.id });
      expect(signups).toBe(1);
      const record = await t.db.manager.findOneByOrFail(IdempotencyRecordEntity, { key: 'signup-bytes' });
      expect(record).toMatchObject({ responseStatus: 201, responseBody: first.text });
    });
  });

  describe('answers that show a secret (POST /v1/webhooks)', () => {
    const URL = 'https://hooks.example.com/services/T000/B000/token-in-the-path';
    const create = (key: string) =>
      t.api
        .as(project.secretKey)
        .post('/v1/webhooks')
        .set('Idempotency-Key', key)
        .send({ url: URL, events: ['*'] });
    const recordOf = (key: string) => t.db.manager.findOneByOrFail(IdempotencyRecordEntity, { key });

    beforeAll(() => {
      // Every name resolves to a public address.
      jest.spyOn(t.get(WebhookHostResolver), 'resolve').mockImplementation(async () => ['93.184.215.14']);
    });
    afterAll(() => jest.restoreAllMocks());
    // Webhooks come with a paid plan.
    beforeEach(async () => {
      project = await t.seedProject({ plan: 'indie' });
    });

    it('keeps the copy for replays sealed: neither the signing secret nor the URL is readable in the database', async () => {
      const first = await create('webhook-1').expect(201);
      const secret: string = first.body.data.signing_secret;
      expect(secret).toMatch(/^whsec_/);
      const record = await recordOf('webhook-1');
      expect(record.responseSealed).toBe(true);
      expect(record.responseBody).toMatch(/^v1\./);
      expect(record.responseBody).not.toContain(secret);
      expect(record.responseBody).not.toContain('token-in-the-path');
      expect(new SecretBox(t.config.encryptionKey!).open(record.responseBody)).toBe(first.text);

      const replay = await create('webhook-1').expect(201);
      expect(replay.text).toBe(first.text);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.headers['x-request-id']).toBe(first.headers['x-request-id']);
      expect(await t.db.manager.countBy(WebhookEndpointEntity, { projectId: project.project.id })).toBe(1);
    });

    it('keeps answers that show no secret as they are', async () => {
      const body = { user_id: 'u_plain', email: 'plain@example.com' };
      const first = await t.api
        .as(project.secretKey)
        .post('/v1/analytics/identify')
        .set('Idempotency-Key', 'plain-1')
        .send(body)
        .expect(200);
      expect(await recordOf('plain-1')).toMatchObject({ responseSealed: false, responseBody: first.text });
    });

    it('answers 503 SEALED_VALUE_UNREADABLE to a replay sealed under another key, and adds nothing', async () => {
      await create('webhook-2').expect(201);
      const other = new SecretBox(randomBytes(32));
      await t.db.manager.update(IdempotencyRecordEntity, { key: 'webhook-2' }, { responseBody: other.seal('{"data":{}}') });
      const res = await create('webhook-2').expect(503);
      expect(res.body.error).toMatchObject({ code: 'SEALED_VALUE_UNREADABLE', remediation: expect.stringContaining('encryption:reseal') });
      expect(await t.db.manager.countBy(WebhookEndpointEntity, { projectId: project.project.id })).toBe(1);
    });

    it('erasing a person deletes a sealed answer that names them, and keeps the others, an unreadable one included', async () => {
      const identified = await t.api
        .as(project.secretKey)
        .post('/v1/analytics/identify')
        .send({ user_id: 'u_sealed', email: 'sealed@example.com' })
        .expect(200);
      await create('webhook-3').expect(201);
      // A sealed answer that names the person, as a create route's answer could.
      const store = t.get(IdempotencyStore);
      const now = t.clock.now();
      const answer = { status: 201, headers: {}, body: JSON.stringify({ data: { name: 'sealed@example.com' }, error: null }) };
      await t.db.transaction((em) =>
        store.save(em, {
          scope: 'key_sealed_probe',
          key: 'naming-1',
          projectId: project.project.id,
          requestHash: 'h',
          answer,
          createdAt: now,
          expiresAt: new Date(now.getTime() + 3_600_000),
          sealed: true,
        }),
      );
      expect((await recordOf('naming-1')).responseBody).not.toContain('sealed@example.com');
      // One sealed under another key: unreadable here, so it cannot stop the erasure, and is left.
      await t.db.manager.insert(IdempotencyRecordEntity, {
        ...(await recordOf('naming-1')),
        key: 'naming-2',
        responseBody: new SecretBox(randomBytes(32)).seal(answer.body),
      });
      await t.api.as(project.secretKey).delete(`/v1/contacts/${identified.body.data.id}`).expect(200);
      expect(await t.db.manager.countBy(IdempotencyRecordEntity, { key: 'naming-1' })).toBe(0);
      expect(await t.db.manager.countBy(IdempotencyRecordEntity, { key: 'naming-2' })).toBe(1);
      expect(await t.db.manager.countBy(IdempotencyRecordEntity, { key: 'webhook-3' })).toBe(1);
    });
  });

  describe('kernel behaviour (test-only route)', () => {
    const post = (key: string, body: object) =>
      t.api.as(project.secretKey).post('/v1/_probe/things').set('Idempotency-Key', key).send(body);

    it('runs a request once when two copies arrive together; the other is told it is in progress', async () => {
      const before = ProbeController.executions;
      const [a, b] = await Promise.all([post('race-1', { name: 'x', delay_ms: 300 }), post('race-1', { name: 'x', delay_ms: 300 })]);
      expect(ProbeController.executions - before).toBe(1);
      const [first, second] = a.status === 201 && a.headers['idempotent-replayed'] === undefined ? [a, b] : [b, a];
      expect(first.status).toBe(201);
      if (second.status === 409) {
        // PostgreSQL: the copy meets the running request's lock and is not kept waiting (as Stripe answers).
        expect(second.body.error).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', param: 'Idempotency-Key' });
        expect(second.headers['retry-after']).toBe('1');
      } else {
        // The embedded database runs one transaction at a time: the copy found the committed answer.
        expect(second.status).toBe(201);
        expect(second.text).toBe(first.text);
      }
      const retry = await post('race-1', { name: 'x', delay_ms: 300 }).expect(201);
      expect(retry.text).toBe(first.text);
      expect(ProbeController.executions - before).toBe(1);
    });

    it('replays the original bytes and headers: body text, status, ETag, Content-Type, request id', async () => {
      const first = await post('bytes-1', { name: 'ünïcode ✓ "quoted"' }).expect(201);
      const replay = await post('bytes-1', { name: 'ünïcode ✓ "quoted"' }).expect(201);
      expect(replay.text).toBe(first.text);
      expect(Buffer.from(replay.text).equals(Buffer.from(first.text))).toBe(true);
      for (const header of ['content-type', 'etag', 'x-request-id', 'content-length']) {
        expect(first.headers[header]).toBeDefined();
        expect(replay.headers[header]).toBe(first.headers[header]);
      }
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(replay.headers['idempotent-replayed']).toBe('true');
      const record = await t.db.manager.findOneByOrFail(IdempotencyRecordEntity, { key: 'bytes-1' });
      expect(record.responseBody).toBe(first.text);
      expect(record.responseStatus).toBe(201);
      expect(record.responseHeaders).toMatchObject({ ETag: first.headers.etag, 'X-Request-Id': first.headers['x-request-id'] });
    });

    it('answers what it committed when a step after the commit fails, and replays it', async () => {
      const before = ProbeController.executions;
      const first = await post('after-commit-1', { name: 'x', fail_with: 'after_commit' }).expect(201);
      expect(first.body.data).toMatchObject({ name: 'x', execution: before + 1 });
      const replay = await post('after-commit-1', { name: 'x', fail_with: 'after_commit' }).expect(201);
      expect(replay.text).toBe(first.text);
      expect(ProbeController.executions - before).toBe(1);
    });

    it('records no error answer (nothing ran), so a retry runs again; a corrected request goes through', async () => {
      const before = ProbeController.executions;
      const conflict = await post('errors-1', { name: 'x', fail_with: 'DUPLICATE_SIGNUP' }).expect(409);
      expect(conflict.body.error.code).toBe('DUPLICATE_SIGNUP');
      await post('errors-1', { name: 'x', fail_with: 'DUPLICATE_SIGNUP' }).expect(409);
      expect(ProbeController.executions - before).toBe(2);
      expect(await t.db.manager.countBy(IdempotencyRecordEntity, { key: 'errors-1' })).toBe(0);
      await post('errors-2', { name: '' }).expect(400);
      const fixed = await post('errors-2', { name: 'now valid' }).expect(201);
      expect(fixed.body.data.name).toBe('now valid');
    });

    it('does not replay a server error', async () => {
      const before = ProbeController.executions;
      await post('crash-1', { name: 'x', fail_with: 'crash' }).expect(500);
      await post('crash-1', { name: 'x', fail_with: 'crash' }).expect(500);
      expect(ProbeController.executions - before).toBe(2);
      expect(await t.db.manager.countBy(IdempotencyRecordEntity, { key: 'crash-1' })).toBe(0);
    });

    (process.env.DATABASE_URL ? it : it.skip)('purges in one process at a time: a run that finds the purge under way skips', async () => {
      await post('purged-once', { name: 'x' }).expect(201);
      t.clock.advance(24 * 3_600_000 + 1_000);
      const other = t.db.dataSource.createQueryRunner();
      try {
        await other.startTransaction();
        await other.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [PURGE_LOCK_NAME]);
        expect(await t.get(IdempotencyStore).purgeExpired()).toBeNull();
        expect(await t.db.manager.countBy(IdempotencyRecordEntity, { key: 'purged-once' })).toBe(1);
        await other.commitTransaction();
        expect(await t.get(IdempotencyStore).purgeExpired()).toBeGreaterThanOrEqual(1);
        expect(await t.db.manager.countBy(IdempotencyRecordEntity, { key: 'purged-once' })).toBe(0);
      } finally {
        await other.release();
        t.clock.reset();
      }
    });

    it('forgets keys after 24 hours', async () => {
      const first = await post('expiring', { name: 'x' }).expect(201);
      t.clock.advance(24 * 3_600_000 + 1_000);
      try {
        const again = await post('expiring', { name: 'other body is fine now' }).expect(201);
        expect(again.body.data.id).not.toBe(first.body.data.id);
        await post('stale', { name: 'x' }).expect(201);
        t.clock.advance(24 * 3_600_000 + 1_000);
        expect(await t.get(IdempotencyStore).purgeExpired()).toBeGreaterThanOrEqual(1);
        expect(await t.db.manager.countBy(IdempotencyRecordEntity, { key: 'stale' })).toBe(0);
      } finally {
        t.clock.reset();
      }
    });

    it('is ignored by routes that create nothing, even when malformed (spec: GET, PATCH and DELETE ignore it)', async () => {
      const res = await t.api.as(project.secretKey).get('/v1/setup-check').set('Idempotency-Key', 'x'.repeat(81)).expect(200);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(await t.db.manager.countBy(IdempotencyRecordEntity, { key: 'x'.repeat(81) })).toBe(0);
    });

    it('ignores requests without a key', async () => {
      const a = await t.api.as(project.secretKey).post('/v1/_probe/things').send({ name: 'x' }).expect(201);
      const b = await t.api.as(project.secretKey).post('/v1/_probe/things').send({ name: 'x' }).expect(201);
      expect(a.body.data.id).not.toBe(b.body.data.id);
    });
  });
});
