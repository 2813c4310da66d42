import { FaultApp, eventually, startFaultApp } from './fault-app';

/**
 * PostgreSQL behind a TCP proxy that goes silent (a black hole: connections accepted, nothing
 * forwarded) and then refuses connections: requests answer 503 SERVICE_UNAVAILABLE with
 * Retry-After within a few seconds instead of hanging or answering 500, nothing half-written stays,
 * and the service recovers by itself.
 */
describe('PostgreSQL outage', () => {
  let f: FaultApp;

  beforeAll(async () => {
    f = await startFaultApp('database');
  });
  afterAll(() => f.close());

  const signUp = (email: string) => f.api.as(f.publishableKey).post('/v1/waitlist/signups').send({ email });
  const readStats = () => f.api.as(f.secretKey).get('/v1/waitlist/stats');
  const timed = async <T>(work: Promise<T>) => {
    const started = Date.now();
    const result = await work;
    return { result, ms: Date.now() - started };
  };
  const expectUnavailable = (res: { status: number; headers: Record<string, string>; body: unknown }) => {
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatchObject({ data: null, error: { code: 'SERVICE_UNAVAILABLE', request_id: expect.any(String) } });
  };
  const listedEmails = async () => {
    const res = await f.api.as(f.secretKey).get('/v1/waitlist/signups?limit=100').expect(200);
    return (res.body.data as { email: string }[]).map((signup) => signup.email).sort();
  };

  it('answers 503 while the database is silent, 201 again once it answers', async () => {
    await signUp('before@x.io').expect(201);
    // Read once first, so the key is cached and the outage reaches the stats statement itself.
    await readStats().expect(200);

    f.proxy.pause();
    const health = await timed(f.api.get('/v1/_health'));
    expectUnavailable(health.result);
    expect(health.ms).toBeLessThan(2_500);

    const during = await timed(signUp('during@x.io'));
    expectUnavailable(during.result);
    expect(during.ms).toBeLessThan(5_000);
    // A read sent straight through the pool (db.reads), not through TypeORM: same answer.
    const stats = await timed(readStats());
    expectUnavailable(stats.result);
    expect(stats.ms).toBeLessThan(5_000);

    f.proxy.resume();
    await eventually(async () => (await signUp('after@x.io')).status === 201, 10_000);
    await f.api.get('/v1/_health').expect(200);
    expect(await listedEmails()).toEqual(['after@x.io', 'before@x.io']);
  });

  it('answers 503 while connections are refused, 201 again once the database is back', async () => {
    await readStats().expect(200);
    await f.proxy.close();
    const health = await timed(f.api.get('/v1/_health'));
    expectUnavailable(health.result);
    expect(health.ms).toBeLessThan(2_500);
    const refused = await timed(signUp('refused@x.io'));
    expectUnavailable(refused.result);
    expect(refused.ms).toBeLessThan(5_000);
    expectUnavailable((await timed(readStats())).result);

    await f.proxy.reopen();
    await eventually(async () => (await signUp('back@x.io')).status === 201, 10_000);
    expect(await listedEmails()).toEqual(['after@x.io', 'back@x.io', 'before@x.io']);
    expect((await readStats().expect(200)).body.data.total_signups).toBe(3);
  });
});
