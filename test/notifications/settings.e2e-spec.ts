import { createHmac } from 'node:crypto';
import { EndUserVerifier } from '../../src/auth/end-user-verifier.service';
import { SigningSecretsService } from '../../src/notifications/identity/signing-secrets.service';
import { ProbeModule } from '../support/probe.module';
import { TestApp } from '../support/test-app';

const hashOf = (userId: string, secret: string) => createHmac('sha256', secret).update(userId, 'utf8').digest('hex');

describe('Notification settings', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ imports: [ProbeModule] });
    const secrets = t.get(SigningSecretsService);
    t.get(EndUserVerifier).useSigningSecrets((projectId) => secrets.readSecrets(projectId));
  });
  afterAll(() => t.close());

  describe('GET /v1/notifications/settings', () => {
    it('answers the defaults, warning while no signing secret exists', async () => {
      const { secretKey } = await t.seedProject();
      const res = await t.api.as(secretKey).get('/v1/notifications/settings').expect(200);
      expect(res.body.data).toEqual({ require_user_hash: true, changelog_to_bell_default: false });
      expect(res.body.meta).toEqual({
        identity_verification: 'on',
        warnings: [expect.objectContaining({ code: 'SIGNING_SECRET_MISSING' })],
      });
      await t.api.as(secretKey).post('/v1/notifications/signing-secret').expect(201);
      const after = await t.api.as(secretKey).get('/v1/notifications/settings').expect(200);
      expect(after.body).toEqual({ data: { require_user_hash: true, changelog_to_bell_default: false }, error: null });
    });

    it('warns while identity verification is off, as setup-check does', async () => {
      const { secretKey } = await t.seedProject({ legacyNotifications: true });
      const res = await t.api.as(secretKey).get('/v1/notifications/settings').expect(200);
      expect(res.body.data.require_user_hash).toBe(false);
      const setup = await t.api.as(secretKey).get('/v1/setup-check').expect(200);
      expect(res.body.meta).toEqual({ identity_verification: 'off', warnings: setup.body.meta.warnings });
      expect(res.body.meta.warnings[0].code).toBe('IDENTITY_VERIFICATION_OFF');
    });

    it('refuses a publishable key', async () => {
      const { publishableKey } = await t.seedProject();
      const res = await t.api.as(publishableKey).get('/v1/notifications/settings');
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
    });
  });

  describe('PATCH /v1/notifications/settings', () => {
    it('switches verification on for a legacy project, and the very next bell call needs the hash', async () => {
      const { secretKey, publishableKey } = await t.seedProject({ legacyNotifications: true });
      const secret = (await t.api.as(secretKey).post('/v1/notifications/signing-secret').expect(201)).body.data.signing_secret;
      // The key cache now holds the project with verification off.
      const legacy = await t.api.as(publishableKey).unchecked().get('/v1/_probe/bell?user_id=ada').expect(200);
      expect(legacy.body.data).toEqual({ userId: 'ada', verified: false });
      const res = await t.api.as(secretKey).patch('/v1/notifications/settings').send({ require_user_hash: true }).expect(200);
      expect(res.body).toEqual({ data: { require_user_hash: true, changelog_to_bell_default: false }, error: null });
      const refused = await t.api.as(publishableKey).unchecked().get('/v1/_probe/bell?user_id=ada');
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('USER_HASH_INVALID');
      await t.api
        .as(publishableKey)
        .unchecked()
        .get('/v1/_probe/bell?user_id=ada')
        .set('X-Service-User-Hash', hashOf('ada', secret))
        .expect(200);
      const setup = await t.api.as(secretKey).get('/v1/setup-check').expect(200);
      expect(setup.body.meta?.identity_verification).toBeUndefined();
    });

    it('allows switching on without a secret, and warns', async () => {
      const { secretKey } = await t.seedProject({ legacyNotifications: true });
      const res = await t.api.as(secretKey).patch('/v1/notifications/settings').send({ require_user_hash: true }).expect(200);
      expect(res.body.meta.warnings).toEqual([expect.objectContaining({ code: 'SIGNING_SECRET_MISSING' })]);
    });

    it('switching off answers with the warning and waives the hash on legacy-tolerant calls', async () => {
      const { secretKey, publishableKey } = await t.seedProject();
      await t.api.as(publishableKey).unchecked().get('/v1/_probe/bell?user_id=ada').expect(403);
      const res = await t.api.as(secretKey).patch('/v1/notifications/settings').send({ require_user_hash: false }).expect(200);
      expect(res.body.meta.identity_verification).toBe('off');
      await t.api.as(publishableKey).unchecked().get('/v1/_probe/bell?user_id=ada').expect(200);
    });

    it('changes only the fields sent and keeps the other modules’ settings', async () => {
      const { secretKey } = await t.seedProject();
      await t.api
        .as(secretKey)
        .patch('/v1/changelog/settings')
        .send({ reaction_set: ['like'] })
        .expect(200);
      const res = await t.api.as(secretKey).patch('/v1/notifications/settings').send({ changelog_to_bell_default: true }).expect(200);
      expect(res.body.data).toEqual({ require_user_hash: true, changelog_to_bell_default: true });
      const empty = await t.api.as(secretKey).patch('/v1/notifications/settings').send({}).expect(200);
      expect(empty.body.data).toEqual({ require_user_hash: true, changelog_to_bell_default: true });
      const changelog = await t.api.as(secretKey).get('/v1/changelog/settings').expect(200);
      expect(changelog.body.data.reaction_set).toEqual(['like']);
    });

    it('refuses a non-boolean and an unknown field with VALIDATION_ERROR naming it', async () => {
      const { secretKey } = await t.seedProject();
      const bad = await t.api.as(secretKey).patch('/v1/notifications/settings').send({ require_user_hash: 'yes' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'require_user_hash' });
      const unknown = await t.api.as(secretKey).patch('/v1/notifications/settings').send({ verify: true });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'verify' });
    });

    it('refuses a publishable key', async () => {
      const { publishableKey } = await t.seedProject();
      const res = await t.api.as(publishableKey).patch('/v1/notifications/settings').send({ require_user_hash: true });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
    });
  });
});
