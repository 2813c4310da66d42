import { SeededProject, TestApp } from '../support/test-app';

/** Secret-key answers carry personal data (emails, contacts), so no cache may keep them. */
describe('Cache-Control on secret-key answers', () => {
  let t: TestApp;
  let seeded: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start();
    seeded = await t.seedProject({ plan: 'indie' });
    await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email: 'person@x.io' }).expect(201);
  });
  afterAll(() => t.close());

  it('is no-store on GET /v1/waitlist/signups and GET /v1/contacts', async () => {
    const signups = await t.api.as(seeded.secretKey).get('/v1/waitlist/signups').expect(200);
    expect(signups.body.data[0].email).toBe('person@x.io');
    expect(signups.headers['cache-control']).toBe('no-store');
    const contacts = await t.api.as(seeded.secretKey).get('/v1/contacts').expect(200);
    expect(contacts.headers['cache-control']).toBe('no-store');
  });

  it('is no-store on a write, on an error and on an idempotent replay', async () => {
    const created = await t.api
      .as(seeded.secretKey)
      .post('/v1/waitlist/signups')
      .set('Idempotency-Key', 'cache-1')
      .send({ email: 'other@x.io' })
      .expect(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const replay = await t.api
      .as(seeded.secretKey)
      .post('/v1/waitlist/signups')
      .set('Idempotency-Key', 'cache-1')
      .send({ email: 'other@x.io' })
      .expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers['cache-control']).toBe('no-store');
    const missing = await t.api.as(seeded.secretKey).post('/v1/waitlist/signups/resend-confirmation').send({ email: 'nobody@x.io' });
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
  });

  it('leaves publishable-key and keyless answers alone', async () => {
    const browser = await t.api.as(seeded.publishableKey).post('/v1/waitlist/signups').send({ email: 'browser@x.io' }).expect(201);
    expect(browser.headers['cache-control']).toBeUndefined();
    expect((await t.api.get('/v1/_health').expect(200)).headers['cache-control']).toBeUndefined();
  });
});
