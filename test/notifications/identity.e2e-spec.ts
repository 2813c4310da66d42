import { createHmac } from 'node:crypto';
import { EndUserVerifier } from '../../src/auth/end-user-verifier.service';
import { SigningSecretsService } from '../../src/notifications/identity/signing-secrets.service';
import { ProbeModule } from '../support/probe.module';
import { TestApp } from '../support/test-app';

/** What an integrator's server computes (spec: Notification identity verification), written independently of ours. */
const hashOf = (userId: string, secret: string) => createHmac('sha256', secret).update(userId, 'utf8').digest('hex');
const DAY_MS = 24 * 3_600_000;

describe('Notification signing secret', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ imports: [ProbeModule] });
    // The probe module installs its own test reader; the bell probes here must use the real one.
    const secrets = t.get(SigningSecretsService);
    t.get(EndUserVerifier).useSigningSecrets((projectId) => secrets.readSecrets(projectId));
  });
  afterAll(() => t.close());

  /** A bell-like route that always needs the hash (as inbox does). */
  const bell = (key: string, userId: string, hash: string) =>
    t.api
      .as(key)
      .unchecked()
      .get(`/v1/_probe/bell/strict?user_id=${encodeURIComponent(userId)}`)
      .set('X-Service-User-Hash', hash);

  describe('POST /v1/notifications/signing-secret', () => {
    it('creates the secret once and answers 409 SIGNING_SECRET_ALREADY_SHOWN after', async () => {
      const { project, secretKey } = await t.seedProject();
      const before = t.clock.now().getTime();
      const res = await t.api.as(secretKey).post('/v1/notifications/signing-secret').expect(201);
      expect(res.body).toEqual({
        data: { signing_secret: expect.stringMatching(/^svc_ntf_[0-9A-Za-z]{40}$/), created_at: expect.any(String), shown_once: true },
        error: null,
      });
      expect(Date.parse(res.body.data.created_at)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(res.body.data.created_at)).toBeLessThanOrEqual(t.clock.now().getTime());
      const again = await t.api.as(secretKey).post('/v1/notifications/signing-secret');
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ data: null, error: { code: 'SIGNING_SECRET_ALREADY_SHOWN' } });
      expect(again.body.error.remediation).toContain('/rotate');
      // Stored sealed, never in clear.
      const [row] = await t.db.manager.query('SELECT secret_ciphertext FROM notification_signing_secrets WHERE project_id = $1', [
        project.id,
      ]);
      expect(row.secret_ciphertext).toMatch(/^v1\./);
      expect(row.secret_ciphertext).not.toContain(res.body.data.signing_secret.slice(8));
    });

    it('gives exactly one of two concurrent creates the secret', async () => {
      const { secretKey } = await t.seedProject();
      const answers = await Promise.all([1, 2, 3].map(() => t.api.as(secretKey).post('/v1/notifications/signing-secret')));
      expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409]);
    });

    it('refuses a publishable key and a missing key', async () => {
      const { publishableKey } = await t.seedProject();
      const pub = await t.api.as(publishableKey).post('/v1/notifications/signing-secret');
      expect(pub.status).toBe(403);
      expect(pub.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
      const none = await t.api.post('/v1/notifications/signing-secret');
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('MISSING_AUTH');
    });
  });

  describe('user_hash with the created secret', () => {
    it('passes with the right hash, answers 403 USER_HASH_INVALID for a wrong one and before any secret exists', async () => {
      const { secretKey, publishableKey } = await t.seedProject();
      const before = await bell(publishableKey, 'user_42', hashOf('user_42', 'svc_ntf_guess'));
      expect(before.status).toBe(403);
      expect(before.body.error).toMatchObject({ code: 'USER_HASH_INVALID', param: 'user_hash' });
      // "No secret" was just cached; creating one takes effect at once in this process.
      const secret = (await t.api.as(secretKey).post('/v1/notifications/signing-secret').expect(201)).body.data.signing_secret;
      const ok = await bell(publishableKey, 'user_42', hashOf('user_42', secret)).expect(200);
      expect(ok.body.data).toEqual({ userId: 'user_42', verified: true });
      const wrong = await bell(publishableKey, 'user_42', hashOf('user_43', secret));
      expect(wrong.status).toBe(403);
      expect(wrong.body.error.code).toBe('USER_HASH_INVALID');
      // Keyed with the whole secret: the body alone does not make the hash.
      const bodyOnly = await bell(publishableKey, 'user_42', hashOf('user_42', secret.slice('svc_ntf_'.length)));
      expect(bodyOnly.status).toBe(403);
    });

    it("never accepts another project's secret", async () => {
      const a = await t.seedProject();
      const b = await t.seedProject();
      const secretA = (await t.api.as(a.secretKey).post('/v1/notifications/signing-secret').expect(201)).body.data.signing_secret;
      await t.api.as(b.secretKey).post('/v1/notifications/signing-secret').expect(201);
      const res = await bell(b.publishableKey, 'ada', hashOf('ada', secretA));
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('USER_HASH_INVALID');
    });
  });

  describe('POST /v1/notifications/signing-secret/rotate', () => {
    it('answers 404 NOT_FOUND while there is no secret to rotate', async () => {
      const { secretKey } = await t.seedProject();
      const res = await t.api.as(secretKey).post('/v1/notifications/signing-secret/rotate');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ data: null, error: { code: 'NOT_FOUND' } });
      expect(res.body.error.remediation).toContain('POST /v1/notifications/signing-secret');
    });

    it('refuses a publishable key', async () => {
      const { publishableKey } = await t.seedProject();
      const res = await t.api.as(publishableKey).post('/v1/notifications/signing-secret/rotate');
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
    });

    it('returns a new secret once; old and new verify for 24 hours, then only the new', async () => {
      const { secretKey, publishableKey } = await t.seedProject();
      const old = (await t.api.as(secretKey).post('/v1/notifications/signing-secret').expect(201)).body.data.signing_secret;
      await bell(publishableKey, 'ada', hashOf('ada', old)).expect(200);
      t.clock.advance(60_000);
      const before = t.clock.now().getTime();
      const res = await t.api.as(secretKey).post('/v1/notifications/signing-secret/rotate').expect(200);
      expect(res.body.data).toEqual({
        signing_secret: expect.stringMatching(/^svc_ntf_[0-9A-Za-z]{40}$/),
        created_at: expect.any(String),
        shown_once: true,
        previous_valid_until: expect.any(String),
      });
      const rotatedAt = Date.parse(res.body.data.created_at);
      expect(rotatedAt).toBeGreaterThanOrEqual(before);
      expect(Date.parse(res.body.data.previous_valid_until) - rotatedAt).toBe(DAY_MS);
      const fresh = res.body.data.signing_secret;
      expect(fresh).not.toBe(old);
      // The cached old set was dropped: the new secret works at once, the old one still does.
      await bell(publishableKey, 'ada', hashOf('ada', fresh)).expect(200);
      await bell(publishableKey, 'ada', hashOf('ada', old)).expect(200);
      t.clock.advance(rotatedAt + DAY_MS - 1_000 - t.clock.now().getTime());
      await bell(publishableKey, 'ada', hashOf('ada', old)).expect(200);
      t.clock.advance(rotatedAt + DAY_MS + 1_000 - t.clock.now().getTime());
      const expired = await bell(publishableKey, 'ada', hashOf('ada', old));
      expect(expired.status).toBe(403);
      expect(expired.body.error.code).toBe('USER_HASH_INVALID');
      await bell(publishableKey, 'ada', hashOf('ada', fresh)).expect(200);
      // Still shown once: creating again is refused.
      const create = await t.api.as(secretKey).post('/v1/notifications/signing-secret');
      expect(create.body.error.code).toBe('SIGNING_SECRET_ALREADY_SHOWN');
    });

    it('keeps only the latest replaced secret: a second rotation ends the first one at once', async () => {
      const { secretKey, publishableKey } = await t.seedProject();
      const first = (await t.api.as(secretKey).post('/v1/notifications/signing-secret').expect(201)).body.data.signing_secret;
      const second = (await t.api.as(secretKey).post('/v1/notifications/signing-secret/rotate').expect(200)).body.data.signing_secret;
      const third = (await t.api.as(secretKey).post('/v1/notifications/signing-secret/rotate').expect(200)).body.data.signing_secret;
      expect((await bell(publishableKey, 'ada', hashOf('ada', first))).status).toBe(403);
      await bell(publishableKey, 'ada', hashOf('ada', second)).expect(200);
      await bell(publishableKey, 'ada', hashOf('ada', third)).expect(200);
    });
  });

  describe('the reader', () => {
    it('serves repeated polls from memory, not the database', async () => {
      const { project, secretKey } = await t.seedProject();
      await t.api.as(secretKey).post('/v1/notifications/signing-secret').expect(201);
      const service = t.get(SigningSecretsService);
      const first = await service.readSecrets(project.id);
      // Removed behind the service's back: a cached read does not notice for up to 5 s.
      await t.db.manager.query('DELETE FROM notification_signing_secrets WHERE project_id = $1', [project.id]);
      expect(await service.readSecrets(project.id)).toBe(first);
      t.clock.advance(5_001);
      expect(await service.readSecrets(project.id)).toEqual({ current: null, previous: null });
    });
  });
});
