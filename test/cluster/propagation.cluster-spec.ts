import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { DashboardOwner, provisionOwner } from '../support/dashboard-owner';
import { TestIdentityProvider } from '../support/identity-provider';
import { runCli } from '../support/server-process';
import { Receiver } from '../webhooks/delivery-support';
import { Cluster, startCluster } from '../support/cluster';

const CNAME_TARGET = 'domains.launch.test';
const stripe = new Stripe('sk_test_unused');

// Process 1 has read (and cached) what changes before each change is made, and is asked once,
// right after the change's answer: a change's answer comes only once every listening process has
// applied it (infra/database/change-notifications.service.ts), so no read may meet an old copy.
describe.each([
  ['PostgreSQL + Redis', true],
  ['PostgreSQL alone', false],
])('changes made through one API process take effect on the other at once (%s)', (_mode, redis) => {
  let cluster: Cluster;
  let idp: TestIdentityProvider;
  let receiver: Receiver;
  let dnsDir: string;
  let owners = 0;

  beforeAll(async () => {
    idp = await TestIdentityProvider.start();
    receiver = await Receiver.start();
    dnsDir = mkdtempSync(join(tmpdir(), 'launch-dns-'));
    cluster = await startCluster({
      apis: 2,
      workers: 2,
      redis,
      env: {
        ...idp.env(),
        WEBHOOK_ALLOW_INSECURE_URLS: 'true',
        CUSTOM_DOMAIN_CNAME_TARGET: CNAME_TARGET,
        // The processes' TXT lookups answer from this file (the verification of a custom domain).
        NODE_OPTIONS: `--require ${join(__dirname, 'fake-dns.preload.js')}`,
        FAKE_DNS_FILE: join(dnsDir, 'txt.json'),
        // PostgreSQL is shared with other suites: four processes at the default 10 each crowd it out.
        DATABASE_POOL_SIZE: '3',
      },
    });
  });
  afterAll(async () => {
    await cluster?.close();
    await receiver?.close();
    await idp?.close();
    rmSync(dnsDir, { recursive: true, force: true });
  });

  const setPlan = (projectId: string, plan: string) =>
    runCli(
      { DATABASE_URL: cluster.databaseUrl, ENCRYPTION_KEY: cluster.env.ENCRYPTION_KEY },
      'plan:set',
      '--project',
      projectId,
      '--plan',
      plan,
    );

  /** A signed-in owner with a first project, provisioned through process 0. */
  async function owner(): Promise<DashboardOwner> {
    owners += 1;
    return provisionOwner(cluster.apiAt(0), idp, `owner-${owners}`, `owner${owners}@x.io`, `Owner ${owners}`);
  }

  const dashboard = (index: number, token: string, projectId: string) => {
    const api = cluster.apiAt(index).as(token);
    return {
      post: (path: string) => api.post(path).set('X-Service-Project', projectId),
      patch: (path: string) => api.patch(path).set('X-Service-Project', projectId),
      delete: (path: string) => api.delete(path).set('X-Service-Project', projectId),
    };
  };

  it('refuses a key revoked through process 0 on process 1 at its next request', async () => {
    const { token, projectId } = await owner();
    for (let round = 0; round < 10; round += 1) {
      const created = await dashboard(0, token, projectId).post('/v1/dashboard/keys').send({ type: 'secret' }).expect(201);
      const { id, key } = created.body.data;
      await cluster.apiAt(1).as(key).get('/v1/waitlist/stats').expect(200);
      await dashboard(0, token, projectId).post(`/v1/dashboard/keys/${id}/revoke`).expect(200);
      const refused = await cluster.apiAt(1).as(key).get('/v1/waitlist/stats').expect(401);
      expect(refused.body.error.code).toBe('REVOKED_API_KEY');
    }
  });

  it("enforces the operator's plan change on process 1 at its next request: the gate and the cap", async () => {
    const { secretKey, projectId } = await cluster.createProject('free');
    const endpoint = (index: number, n: number) =>
      cluster
        .apiAt(index)
        .as(secretKey)
        .post('/v1/webhooks')
        .send({ url: `http://127.0.0.1:9/plan/${n}`, events: ['feedback.created'] });
    expect((await endpoint(1, 0).expect(403)).body.error.code).toBe('PLAN_UPGRADE_REQUIRED');
    await setPlan(projectId, 'indie');
    await endpoint(1, 1).expect(201);
    await endpoint(0, 2).expect(201);
    expect((await endpoint(1, 3).expect(403)).body.error.code).toBe('WEBHOOK_LIMIT_REACHED');
    await setPlan(projectId, 'free');
    expect((await endpoint(1, 4).expect(403)).body.error.code).toBe('PLAN_UPGRADE_REQUIRED');
    const [rows] = await cluster.sql<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints WHERE project_id = $1', [projectId]);
    expect(rows.n).toBe(2);
  });

  it('signs with the rotated webhook secret whichever process or worker sends next', async () => {
    receiver.reset();
    const { secretKey, projectId } = await owner();
    await cluster.sql("UPDATE projects SET plan = 'indie' WHERE id = $1", [projectId]);
    const created = await cluster
      .apiAt(0)
      .as(secretKey)
      .post('/v1/webhooks')
      .send({ url: receiver.url, events: ['waitlist.signup.created'] })
      .expect(201);
    const { id, signing_secret: first } = created.body.data;
    const second = (await cluster.apiAt(0).as(secretKey).post(`/v1/webhooks/${id}/rotate-secret`).expect(200)).body.data.signing_secret;

    // A worker's delivery of an event that process 1 records.
    await cluster.apiAt(1).as(secretKey).post('/v1/waitlist/signups').send({ email: 'rotated@x.io' }).expect(201);
    await receiver.waitFor(1, 30_000);
    const delivered = receiver.requests[0];
    const header = delivered.headers['service-signature'] as string;
    // The new secret signs, and the previous one still does for a day (receivers switch in their own time).
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(stripe.webhooks.constructEvent(delivered.rawBody, header, second).type).toBe('waitlist.signup.created');

    // Rotated again on process 1; process 0's test send signs with the newest and the one before.
    const third = (await cluster.apiAt(1).as(secretKey).post(`/v1/webhooks/${id}/rotate-secret`).expect(200)).body.data.signing_secret;
    const sent = await cluster.apiAt(0).as(secretKey).post(`/v1/webhooks/${id}/test`).expect(200);
    expect(sent.body.data.delivered).toBe(true);
    const test = receiver.requests[1];
    const testHeader = test.headers['service-signature'] as string;
    expect(stripe.webhooks.constructEvent(test.rawBody, testHeader, third).type).toBe('webhook.test');
    expect(stripe.webhooks.constructEvent(test.rawBody, testHeader, second).type).toBe('webhook.test');
    expect(() => stripe.webhooks.constructEvent(test.rawBody, testHeader, first)).toThrow(/No signatures found matching/);
    expect(receiver.requests).toHaveLength(2);
  });

  it('moves the public changelog to the new slug on process 1 at once; the old slug redirects', async () => {
    const { token, projectId, slug } = await owner();
    const fresh = `moved-${redis ? 'r' : 'p'}-${Date.now().toString(36)}`;
    const publicApi = () => cluster.apiAt(1).unchecked();
    await publicApi().get(`/public/changelog/${slug}`).expect(200);
    await publicApi().get(`/changelog/${slug}`).expect(200);
    await publicApi().get(`/public/changelog/${fresh}`).expect(404);
    const patched = await dashboard(0, token, projectId).patch(`/v1/dashboard/projects/${projectId}`).send({ slug: fresh }).expect(200);
    expect(patched.body.data.slug).toBe(fresh);
    const moved = await publicApi().get(`/public/changelog/${slug}`).expect(308);
    expect(moved.headers.location).toContain(`/public/changelog/${fresh}`);
    expect((await publicApi().get(`/changelog/${slug}`).expect(308)).headers.location).toContain(`/changelog/${fresh}`);
    await publicApi().get(`/public/changelog/${fresh}`).expect(200);
    await publicApi().get(`/changelog/${fresh}`).expect(200);
  });

  it('serves a custom domain verified through process 0 on process 1 at its next request, and stops when it is removed', async () => {
    const { token, projectId } = await owner();
    await cluster.sql("UPDATE projects SET plan = 'builder' WHERE id = $1", [projectId]);
    const hostname = `news-${redis ? 'r' : 'p'}.cluster.example`;
    const onHost = (index: number) => cluster.apiAt(index).unchecked().get('/').set('Host', hostname);
    const added = await dashboard(0, token, projectId).post('/v1/dashboard/domains').send({ hostname }).expect(201);
    const id = added.body.data.id as string;
    // Process 1 looks the name up (and remembers that no project serves it) before it is verified.
    await onHost(1).expect(404);
    const [{ verification_token: proof }] = await cluster.sql<{ verification_token: string }>(
      'SELECT verification_token FROM custom_domains WHERE id = $1',
      [id],
    );
    writeFileSync(
      join(dnsDir, 'txt.json'),
      JSON.stringify({ [`_launch-service.${hostname}`]: [[`launch-service-verification=${proof}`]] }),
    );
    const verified = await dashboard(0, token, projectId).post(`/v1/dashboard/domains/${id}/verify`).expect(200);
    expect(verified.body.data.status).toBe('verified');
    await onHost(0).expect(200);
    const served = await onHost(1).expect(200);
    expect(served.text).toContain(`Owner ${owners}`);

    await dashboard(0, token, projectId).delete(`/v1/dashboard/domains/${id}`).expect(200);
    await onHost(0).expect(404);
    await onHost(1).expect(404);
  });
});
