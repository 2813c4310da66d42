import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContactEntity } from '../../src/contacts/entities/contact.entity';
import { EventEntity } from '../../src/events/entities/event.entity';
import { MailMessageEntity } from '../../src/infra/mail/entities/mail-message.entity';
import { TurnstileVerifier } from '../../src/waitlist/turnstile.client';
import { SeededProject, TestApp } from '../support/test-app';
import { signupRows } from './waitlist-test-helpers';

type Mode = 'accept' | 'reject' | 'error' | 'not-json' | 'drop' | 'hang';

/** A stand-in for Cloudflare siteverify: answers as `mode` says and records what it was sent. */
class FakeVerifier {
  mode: Mode = 'accept';
  readonly received: Record<string, string>[] = [];
  private readonly server: Server;
  private readonly hanging: ServerResponse[] = [];

  constructor() {
    this.server = createServer((req, res) => this.handle(req, res));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/siteverify`;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      this.received.push(Object.fromEntries(new URLSearchParams(body)));
      if (this.mode === 'drop') return void req.socket.destroy();
      if (this.mode === 'hang') return void this.hanging.push(res);
      if (this.mode === 'error') return void res.writeHead(500).end('oops');
      if (this.mode === 'not-json') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>');
      const success = this.mode === 'accept';
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ success, 'error-codes': success ? [] : ['invalid-input-response'] }));
    });
  }
}

describe('POST /v1/waitlist/signups with the bot check on', () => {
  let t: TestApp;
  let verifier: FakeVerifier;
  let seeded: SeededProject;

  beforeAll(async () => {
    verifier = new FakeVerifier();
    const url = await verifier.start();
    t = await TestApp.start({ env: { TURNSTILE_SECRET: 'turnstile-test-secret', TURNSTILE_VERIFY_URL: url } });
  });
  afterAll(async () => {
    await t.close();
    await verifier.stop();
  });
  // An empty waitlist and a verifier that accepts, for every test.
  beforeEach(async () => {
    verifier.mode = 'accept';
    verifier.received.length = 0;
    seeded = await t.seedProject({ plan: 'indie' });
  });

  async function expectNothingWritten(): Promise<void> {
    const projectId = seeded.project.id;
    expect(await signupRows(t, projectId)).toEqual([]);
    expect(await t.db.manager.countBy(EventEntity, { projectId })).toBe(0);
    expect(await t.db.manager.countBy(MailMessageEntity, { projectId })).toBe(0);
    expect(await t.db.manager.countBy(ContactEntity, { projectId })).toBe(0);
  }

  it('answers 400 TURNSTILE_FAILED without a token, without asking the verifier', async () => {
    const res = await t.api.as(seeded.publishableKey).post('/v1/waitlist/signups').send({ email: 'bot@x.io' }).expect(400);
    expect(res.body).toMatchObject({ data: null, error: { code: 'TURNSTILE_FAILED', param: 'turnstile_token' } });
    expect(verifier.received).toEqual([]);
    await expectNothingWritten();
  });

  it('answers 400 TURNSTILE_FAILED when the verifier refuses the token', async () => {
    verifier.mode = 'reject';
    const res = await t.api
      .as(seeded.publishableKey)
      .post('/v1/waitlist/signups')
      .send({ email: 'bot@x.io', turnstile_token: 'bad-token' })
      .expect(400);
    expect(res.body).toMatchObject({ data: null, error: { code: 'TURNSTILE_FAILED', param: 'turnstile_token' } });
    await expectNothingWritten();
  });

  it.each([
    ['answers 500', 'error'],
    ['answers something that is not JSON', 'not-json'],
    ['drops the connection', 'drop'],
  ] as [string, Mode][])('answers 503 TURNSTILE_UNAVAILABLE when the verifier %s, writing nothing', async (_case, mode) => {
    verifier.mode = mode;
    const res = await t.api
      .as(seeded.publishableKey)
      .post('/v1/waitlist/signups')
      .send({ email: 'person@x.io', turnstile_token: 'token' })
      .expect(503);
    expect(res.body).toMatchObject({ data: null, error: { code: 'TURNSTILE_UNAVAILABLE' } });
    await expectNothingWritten();
  });

  it('answers 503 TURNSTILE_UNAVAILABLE when the verifier does not answer in time', async () => {
    verifier.mode = 'hang';
    const turnstile = t.get(TurnstileVerifier);
    const timeout = turnstile.timeoutMs;
    turnstile.timeoutMs = 300;
    try {
      const res = await t.api
        .as(seeded.publishableKey)
        .post('/v1/waitlist/signups')
        .send({ email: 'person@x.io', turnstile_token: 'token' })
        .expect(503);
      expect(res.body.error.code).toBe('TURNSTILE_UNAVAILABLE');
    } finally {
      turnstile.timeoutMs = timeout;
    }
    await expectNothingWritten();
  });

  it('lets a signup with an accepted token in, sending secret, token and the visitor address', async () => {
    const res = await t.api
      .as(seeded.publishableKey)
      .post('/v1/waitlist/signups')
      .send({ email: 'human@x.io', turnstile_token: 'good-token' })
      .expect(201);
    expect(res.body.data.position).toBe(1);
    expect(verifier.received).toEqual([
      { secret: 'turnstile-test-secret', response: 'good-token', remoteip: expect.stringMatching(/127\.0\.0\.1|::1/) },
    ]);
  });

  it('asks no token of a secret-key (server-side) signup, and does not ask the verifier', async () => {
    const res = await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email: 'server@x.io' }).expect(201);
    expect(res.body.data).toMatchObject({ signup_id: expect.any(String), position: 1, already_registered: false });
    expect(verifier.received).toEqual([]);
    expect((await signupRows(t, seeded.project.id)).map((row) => [row.email, row.channel])).toEqual([['server@x.io', 'api']]);
  });

  it('checks a token a server forwards, without a visitor address (the caller is a server)', async () => {
    await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email: 'server@x.io', turnstile_token: 'fwd' }).expect(201);
    expect(verifier.received).toEqual([{ secret: 'turnstile-test-secret', response: 'fwd' }]);
    verifier.mode = 'reject';
    const refused = await t.api
      .as(seeded.secretKey)
      .post('/v1/waitlist/signups')
      .send({ email: 'forwarded-bot@x.io', turnstile_token: 'bad' })
      .expect(400);
    expect(refused.body.error).toMatchObject({ code: 'TURNSTILE_FAILED', param: 'turnstile_token' });
    expect((await signupRows(t, seeded.project.id)).map((row) => row.email)).toEqual(['server@x.io']);
  });

  it('replays an idempotent signup without spending the token again', async () => {
    const body = { email: 'replay@x.io', turnstile_token: 'once' };
    const first = await t.api.as(seeded.publishableKey).post('/v1/waitlist/signups').set('Idempotency-Key', 'ts-1').send(body).expect(201);
    verifier.mode = 'reject';
    const replay = await t.api.as(seeded.publishableKey).post('/v1/waitlist/signups').set('Idempotency-Key', 'ts-1').send(body).expect(201);
    expect(replay.body).toEqual(first.body);
    expect(verifier.received).toHaveLength(1);
  });
});
