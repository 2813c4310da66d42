import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookEndpointEntity } from '../../src/webhooks/entities/webhook-endpoint.entity';
import { WebhookHostResolver, dnsUnavailable } from '../../src/webhooks/url-policy/host-resolver.service';
import { SeededProject, TestApp } from '../support/test-app';

// The stubbed DNS: what each name resolves to (a missing name does not resolve).
const DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'private.example.com': ['10.0.0.1'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'compatible.example.com': ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::93.184.215.14'],
  'mixed.example.com': ['93.184.215.14', '192.168.1.20'],
  'metadata.example.com': ['169.254.169.254'],
  'hooks.slack.com': ['52.1.2.3'],
  'discord.com': ['162.159.128.233'],
};
const SLACK = 'https://hooks.slack.com/services/T0001ABC/B0002DEF/abcdEFGH1234wxyz';
const DISCORD = 'https://discord.com/api/webhooks/123456789012345678/AbC-dEf_GhI';

describe('webhook URL rules (POST and PATCH /v1/webhooks)', () => {
  let t: TestApp;
  let seeded: SeededProject;
  const asked: string[] = [];

  beforeAll(async () => {
    t = await TestApp.start();
    jest.spyOn(t.get(WebhookHostResolver), 'resolve').mockImplementation(async (host) => {
      asked.push(host);
      // What the resolver throws when DNS times out or answers SERVFAIL (host-resolver.spec.ts).
      if (host === 'flaky-dns.example.com') throw dnsUnavailable(host, 'EAI_AGAIN');
      return DNS[host] ?? [];
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    seeded = await t.seedProject({ plan: 'builder' });
    asked.length = 0;
  });

  const create = (url: string, format?: string) =>
    t.api
      .as(seeded.secretKey)
      .post('/v1/webhooks')
      .send({ url, events: ['*'], ...(format ? { format } : {}) });

  it('accepts a public https hostname that resolves only to public addresses', async () => {
    const res = await create('https://hooks.example.com:443/launch').expect(201);
    expect(res.body.data.url).toBe('https://hooks.example.com/…');
    expect(asked).toEqual(['hooks.example.com']);
  });

  it.each([
    ['http://hooks.example.com/launch', 'The URL must use https:// (got http://).'],
    ['https://user:pass@hooks.example.com/launch', 'The URL must not contain a username or password.'],
    ['https://hooks.example.com:8443/launch', 'The URL must use the default https port 443, not :8443.'],
    ['https://10.0.0.1/launch', 'The URL must use a public hostname, not an IP address (10.0.0.1).'],
    ['https://93.184.215.14/launch', 'The URL must use a public hostname, not an IP address (93.184.215.14).'],
    ['https://[2606:2800:21f:cb07::1]/launch', 'The URL must use a public hostname, not an IP address (2606:2800:21f:cb07::1).'],
    ['https://2130706433/launch', 'The URL must use a public hostname, not an IP address (127.0.0.1).'],
    ['https://0x7f.0.0.1/launch', 'The URL must use a public hostname, not an IP address (127.0.0.1).'],
    ['https://0177.0.0.1/launch', 'The URL must use a public hostname, not an IP address (127.0.0.1).'],
    ['https://localhost/launch', 'The URL must use a public hostname; "localhost" is a single-label (internal) name.'],
    ['https://webhooks/launch', 'The URL must use a public hostname; "webhooks" is a single-label (internal) name.'],
    ['https://hooks.localhost/launch', 'The URL must use a public hostname; .localhost names are internal.'],
    ['https://printer.local/launch', 'The URL must use a public hostname; .local names are internal.'],
    ['https://metadata.google.internal/launch', 'The URL must use a public hostname; .internal names are internal.'],
    ['https://nas.lan/launch', 'The URL must use a public hostname; .lan names are internal.'],
    [
      'https://private.example.com/launch',
      'The hostname private.example.com must resolve only to public addresses; it resolves to 10.0.0.1.',
    ],
    [
      'https://mapped.example.com/launch',
      'The hostname mapped.example.com must resolve only to public addresses; it resolves to ::ffff:127.0.0.1.',
    ],
    [
      'https://compatible.example.com/launch',
      'The hostname compatible.example.com must resolve only to public addresses; it resolves to ::93.184.215.14.',
    ],
    [
      'https://mixed.example.com/launch',
      'The hostname mixed.example.com must resolve only to public addresses; it resolves to 192.168.1.20.',
    ],
    [
      'https://metadata.example.com/launch',
      'The hostname metadata.example.com must resolve only to public addresses; it resolves to 169.254.169.254.',
    ],
    ['https://nowhere.example.com/launch', 'The hostname nowhere.example.com must resolve to a public address; it does not resolve.'],
    ['not a url', 'The URL must be an absolute URL such as https://hooks.example.com/launch.'],
  ])('refuses %s', async (url, message) => {
    const res = await create(url).expect(422);
    expect(res.body).toMatchObject({ data: null, error: { code: 'INVALID_WEBHOOK_URL', param: 'url', message } });
    expect(await t.db.manager.count(WebhookEndpointEntity, { where: { projectId: seeded.project.id } })).toBe(0);
  });

  it('answers a resolver that could not answer with a retryable 503 that says so, and saves nothing', async () => {
    const res = await create('https://flaky-dns.example.com/launch').expect(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatchObject({
      data: null,
      error: {
        code: 'SERVICE_UNAVAILABLE',
        param: 'url',
        message: 'The hostname flaky-dns.example.com could not be resolved right now (EAI_AGAIN); nothing was saved.',
        remediation: expect.stringMatching(/^DNS did not answer for now: retry in 5 seconds/),
      },
    });
    expect(await t.db.manager.count(WebhookEndpointEntity, { where: { projectId: seeded.project.id } })).toBe(0);
  });

  it('asks DNS only after every rule on the URL itself passed', async () => {
    await create('https://localhost/launch').expect(422);
    await create('https://10.0.0.1/launch').expect(422);
    expect(asked).toEqual([]);
  });

  describe('chat formats', () => {
    it('accept the services incoming-webhook URLs, masked to host and last 4', async () => {
      expect((await create(SLACK, 'chat_a').expect(201)).body.data).toMatchObject({
        format: 'chat_a',
        url: 'https://hooks.slack.com/…/wxyz',
      });
      expect((await create(DISCORD, 'chat_b').expect(201)).body.data).toMatchObject({
        format: 'chat_b',
        url: 'https://discord.com/…/_GhI',
      });
    });

    it('refuse a URL that is not that service’s shape', async () => {
      const a = await create('https://hooks.example.com/services/T1/B2/abc', 'chat_a').expect(422);
      expect(a.body.error).toMatchObject({
        code: 'INVALID_WEBHOOK_URL',
        param: 'url',
        message: expect.stringContaining('chat_a endpoint needs a Slack-style'),
      });
      const b = await create(SLACK, 'chat_b').expect(422);
      expect(b.body.error.message).toContain('chat_b endpoint needs a Discord-style');
    });

    it('take a chat URL sent as json as a json endpoint', async () => {
      expect((await create(SLACK).expect(201)).body.data.format).toBe('json');
    });
  });

  it('checks a new URL on PATCH and leaves the endpoint as it was when it breaks a rule', async () => {
    const { id, url } = (await create('https://hooks.example.com/launch/receive').expect(201)).body.data;
    const res = await t.api
      .as(seeded.secretKey)
      .patch(`/v1/webhooks/${id}`)
      .send({ url: 'https://private.example.com/x', events: ['feedback.created'] })
      .expect(422);
    expect(res.body.error).toMatchObject({ code: 'INVALID_WEBHOOK_URL', param: 'url' });
    expect((await t.api.as(seeded.secretKey).get(`/v1/webhooks/${id}`).expect(200)).body.data).toMatchObject({ url, events: ['*'] });
  });
});

describe('WEBHOOK_ALLOW_INSECURE_URLS=true', () => {
  let t: TestApp;
  let receiver: Server;

  beforeAll(async () => {
    t = await TestApp.start({ env: { WEBHOOK_ALLOW_INSECURE_URLS: 'true' } });
    receiver = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver.close(resolve));
    await t.close();
  });

  it('accepts http, loopback addresses, internal names and any port for local receivers', async () => {
    const { secretKey } = await t.seedProject({ plan: 'builder' });
    const port = (receiver.address() as AddressInfo).port;
    for (const url of [`http://127.0.0.1:${port}/hooks/receive`, `http://localhost:${port}/hooks/receive`, 'https://10.0.0.1/x']) {
      await t.api
        .as(secretKey)
        .post('/v1/webhooks')
        .send({ url, events: ['*'] })
        .expect(201);
    }
    // Chat formats keep the service's path shape on any host.
    await t.api
      .as(secretKey)
      .post('/v1/webhooks')
      .send({ url: `http://127.0.0.1:${port}/services/T1/B2/abc`, events: ['*'], format: 'chat_a' })
      .expect(201);
    const res = await t.api
      .as(secretKey)
      .post('/v1/webhooks')
      .send({ url: `http://127.0.0.1:${port}/x`, events: ['*'], format: 'chat_b' })
      .expect(422);
    expect(res.body.error.message).toContain('Discord-style');
    // Credentials are still refused.
    await t.api
      .as(secretKey)
      .post('/v1/webhooks')
      .send({ url: `http://u:p@127.0.0.1:${port}/x`, events: ['*'] })
      .expect(422);
  });
});
