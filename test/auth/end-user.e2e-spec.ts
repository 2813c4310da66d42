import { createHmac } from 'node:crypto';
import { PROBE_SIGNING_SECRETS, ProbeModule } from '../support/probe.module';
import { SeededProject, TestApp } from '../support/test-app';

/** What an integrator's server computes (spec: Notification identity verification), written independently of ours. */
const hashOf = (userId: string, secret: string) => createHmac('sha256', secret).update(userId, 'utf8').digest('hex');

const CURRENT = 'svc_ntf_currentCURRENTcurrentCURRENTcu';
const PREVIOUS = 'svc_ntf_previousPREVIOUSpreviousPREVIOUS';

describe('End-user identity on publishable routes (user_id + user_hash)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ imports: [ProbeModule] });
  });
  afterAll(() => t.close());

  async function projectWithSecret(options: { legacy?: boolean; previousValidForMs?: number } = {}): Promise<SeededProject> {
    const seeded = await t.seedProject({ legacyNotifications: options.legacy });
    PROBE_SIGNING_SECRETS.set(seeded.project.id, {
      current: CURRENT,
      previous:
        options.previousValidForMs === undefined
          ? null
          : { secret: PREVIOUS, validUntil: new Date(t.clock.now().getTime() + options.previousValidForMs) },
    });
    return seeded;
  }

  const bell = (key: string) => t.api.as(key).unchecked();

  it('accepts a valid hash from the header, the query or the JSON body', async () => {
    const { publishableKey } = await projectWithSecret();
    const hash = hashOf('user_42', CURRENT);
    const fromHeader = await bell(publishableKey).get('/v1/_probe/bell?user_id=user_42').set('X-Service-User-Hash', hash).expect(200);
    expect(fromHeader.body.data).toEqual({ userId: 'user_42', verified: true });
    const fromQuery = await bell(publishableKey).get(`/v1/_probe/bell?user_id=user_42&user_hash=${hash}`).expect(200);
    expect(fromQuery.body.data).toEqual({ userId: 'user_42', verified: true });
    const fromBody = await bell(publishableKey).post('/v1/_probe/bell').send({ user_id: 'user_42', user_hash: hash }).expect(200);
    expect(fromBody.body.data).toEqual({ userId: 'user_42', verified: true });
    const upperCase = await bell(publishableKey).get('/v1/_probe/bell?user_id=user_42').set('X-Service-User-Hash', hash.toUpperCase());
    expect(upperCase.status).toBe(200);
  });

  it('refuses a wrong hash, a hash of another user and a missing hash with 403 USER_HASH_INVALID', async () => {
    const { publishableKey } = await projectWithSecret();
    const wrong = await bell(publishableKey)
      .get('/v1/_probe/bell?user_id=user_42')
      .set('X-Service-User-Hash', hashOf('user_42', 'svc_ntf_x'));
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ data: null, error: { code: 'USER_HASH_INVALID', param: 'user_hash' } });
    const otherUser = await bell(publishableKey)
      .get('/v1/_probe/bell?user_id=user_43')
      .set('X-Service-User-Hash', hashOf('user_42', CURRENT));
    expect(otherUser.body.error.code).toBe('USER_HASH_INVALID');
    const missing = await bell(publishableKey).get('/v1/_probe/bell?user_id=user_42');
    expect(missing.status).toBe(403);
    expect(missing.body.error).toMatchObject({ code: 'USER_HASH_INVALID', param: 'user_hash' });
    const garbage = await bell(publishableKey).get('/v1/_probe/bell?user_id=user_42').set('X-Service-User-Hash', 'not-a-hash');
    expect(garbage.body.error.code).toBe('USER_HASH_INVALID');
  });

  it('refuses every hash while the project has no signing secret, and says how to create one', async () => {
    const { project, publishableKey } = await t.seedProject();
    PROBE_SIGNING_SECRETS.delete(project.id);
    const res = await bell(publishableKey).get('/v1/_probe/bell?user_id=user_42').set('X-Service-User-Hash', hashOf('user_42', CURRENT));
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'USER_HASH_INVALID', param: 'user_hash' });
    expect(res.body.error.remediation).toContain('POST /v1/notifications/signing-secret');
  });

  it('keeps accepting the previous secret during its grace period after a rotation, then only the new one', async () => {
    const { publishableKey } = await projectWithSecret({ previousValidForMs: 24 * 3_600_000 });
    const oldHash = hashOf('ada', PREVIOUS);
    await bell(publishableKey).get('/v1/_probe/bell?user_id=ada').set('X-Service-User-Hash', oldHash).expect(200);
    await bell(publishableKey).get('/v1/_probe/bell?user_id=ada').set('X-Service-User-Hash', hashOf('ada', CURRENT)).expect(200);
    t.clock.advance(24 * 3_600_000 + 1_000);
    try {
      const expired = await bell(publishableKey).get('/v1/_probe/bell?user_id=ada').set('X-Service-User-Hash', oldHash);
      expect(expired.status).toBe(403);
      expect(expired.body.error.code).toBe('USER_HASH_INVALID');
      await bell(publishableKey).get('/v1/_probe/bell?user_id=ada').set('X-Service-User-Hash', hashOf('ada', CURRENT)).expect(200);
    } finally {
      t.clock.reset();
    }
  });

  it('answers a legacy project (verification off) without a hash on unless_legacy routes only', async () => {
    const { publishableKey } = await projectWithSecret({ legacy: true });
    const waived = await bell(publishableKey).get('/v1/_probe/bell?user_id=user_42').expect(200);
    expect(waived.body.data).toEqual({ userId: 'user_42', verified: false });
    const strict = await bell(publishableKey).get('/v1/_probe/bell/strict?user_id=user_42');
    expect(strict.status).toBe(403);
    expect(strict.body.error.code).toBe('USER_HASH_INVALID');
    // A hash that is sent is always checked.
    const wrong = await bell(publishableKey)
      .get('/v1/_probe/bell?user_id=user_42')
      .set('X-Service-User-Hash', hashOf('user_42', 'svc_ntf_x'));
    expect(wrong.status).toBe(403);
    const right = await bell(publishableKey)
      .get('/v1/_probe/bell/strict?user_id=user_42')
      .set('X-Service-User-Hash', hashOf('user_42', CURRENT));
    expect(right.body.data).toEqual({ userId: 'user_42', verified: true });
  });

  it('needs no hash from a secret key: the product server speaks for its users', async () => {
    const { secretKey } = await t.seedProject();
    const res = await bell(secretKey).get('/v1/_probe/bell/strict?user_id=user_42').expect(200);
    expect(res.body.data).toEqual({ userId: 'user_42', verified: true });
  });

  it('requires a usable user_id', async () => {
    const { publishableKey } = await projectWithSecret();
    const missing = await bell(publishableKey).get('/v1/_probe/bell').set('X-Service-User-Hash', hashOf('', CURRENT));
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'user_id' });
    const tooLong = 'u'.repeat(257);
    const long = await bell(publishableKey).get(`/v1/_probe/bell?user_id=${tooLong}`).set('X-Service-User-Hash', hashOf(tooLong, CURRENT));
    expect(long.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'user_id' });
    const twice = await bell(publishableKey).get('/v1/_probe/bell?user_id=a&user_id=b');
    expect(twice.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'user_id' });
    const notString = await bell(publishableKey)
      .post('/v1/_probe/bell')
      .send({ user_id: 42, user_hash: hashOf('42', CURRENT) });
    expect(notString.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'user_id' });
    const longest = 'ü'.repeat(256);
    await bell(publishableKey)
      .get(`/v1/_probe/bell?user_id=${encodeURIComponent(longest)}`)
      .set('X-Service-User-Hash', hashOf(longest, CURRENT))
      .expect(200);
  });

  it('lets an optional-identity route run anonymously, but never treats a user_id without a valid hash as anonymous', async () => {
    const { publishableKey } = await projectWithSecret();
    const anonymous = await bell(publishableKey).get('/v1/_probe/widget').expect(200);
    expect(anonymous.body.data).toEqual({ user: null });
    const unverified = await bell(publishableKey).get('/v1/_probe/widget?user_id=user_42');
    expect(unverified.status).toBe(403);
    expect(unverified.body.error.code).toBe('USER_HASH_INVALID');
    const verified = await bell(publishableKey)
      .get('/v1/_probe/widget?user_id=user_42')
      .set('X-Service-User-Hash', hashOf('user_42', CURRENT));
    expect(verified.body.data).toEqual({ user: { userId: 'user_42', verified: true } });
  });

  it("keeps projects apart: a hash made with another project's secret is refused", async () => {
    const first = await projectWithSecret();
    const second = await t.seedProject();
    PROBE_SIGNING_SECRETS.set(second.project.id, { current: 'svc_ntf_secondSECONDsecondSECONDseco', previous: null });
    const res = await bell(second.publishableKey)
      .get('/v1/_probe/bell?user_id=user_42')
      .set('X-Service-User-Hash', hashOf('user_42', CURRENT));
    expect(res.status).toBe(403);
    await bell(first.publishableKey)
      .get('/v1/_probe/bell?user_id=user_42')
      .set('X-Service-User-Hash', hashOf('user_42', CURRENT))
      .expect(200);
  });
});
