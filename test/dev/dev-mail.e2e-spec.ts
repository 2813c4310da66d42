import { Writable } from 'node:stream';
import { TestApp } from '../support/test-app';

/** Collects the JSON log lines the application writes. */
class LogLines extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
}

const CONFIRM_LINK = /^https:\/\/launch\.test\/v1\/waitlist\/confirm\?token=[^&\s]+$/;

const NO_SUCH_ENDPOINT = { data: null, error: { code: 'NOT_FOUND', message: 'No such endpoint.' } };

describe('GET /dev/mail with DEV_MAIL=on', () => {
  let t: TestApp;
  const log = new LogLines();

  beforeAll(async () => {
    t = await TestApp.start({ env: { DEV_MAIL: 'on', LOG_LEVEL: 'info' }, logDestination: log });
    // Nest holds framework log lines back until the server listens; supertest never calls listen.
    t.app.flushLogs();
  });
  afterAll(() => t.close());

  async function signUp(email: string): Promise<{ projectSlug: string }> {
    const seeded = await t.seedProject({ plan: 'indie', name: 'Acme Beta' });
    await t.api.as(seeded.publishableKey).post('/v1/waitlist/signups').send({ email }).expect(201);
    await t.drainJobs();
    return { projectSlug: seeded.project.slug };
  }

  // Not part of the API, so not in openapi.json: these calls skip the document check.
  const devMail = (accept: string) => t.api.unchecked().get('/dev/mail').set('Accept', accept);

  it('lists the confirmation mail of a waitlist signup, newest first, with its confirm link that works', async () => {
    await signUp('first@example.com');
    await signUp('ada@example.com');
    const res = await devMail('application/json').expect(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.body.error).toBeNull();
    const [newest, older] = res.body.data;
    expect(newest).toEqual({
      id: expect.stringMatching(/^mail_/),
      kind: 'waitlist.confirmation',
      to: 'ada@example.com',
      subject: 'Confirm your spot on the Acme Beta waitlist',
      status: 'logged',
      created_at: expect.any(String),
      sent_at: expect.any(String),
      links: expect.arrayContaining([expect.stringMatching(CONFIRM_LINK)]),
    });
    expect(older.to).toBe('first@example.com');
    // The link a newcomer clicks opens the confirmation page.
    const confirm = new URL(newest.links.find((link: string) => CONFIRM_LINK.test(link)));
    const page = await t.api.get(`${confirm.pathname}${confirm.search}`).expect(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('answers a small HTML page with clickable links when a browser asks', async () => {
    await signUp('grace@example.com');
    const res = await devMail('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8').expect(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('Confirm your spot on the Acme Beta waitlist');
    expect(res.text).toContain('to grace@example.com');
    expect(res.text).toMatch(/<a class="link" href="https:\/\/launch\.test\/v1\/waitlist\/confirm\?token=[^"]+">/);
  });

  it('writes one readable log line per mail with recipient, subject and links', async () => {
    await signUp('lin@example.com');
    const lines = log.lines.filter((line) => line.context === 'MailOutbox' && String(line.msg).includes('lin@example.com'));
    expect(lines).toHaveLength(1);
    expect(lines[0].msg).toMatch(
      /^Email to lin@example\.com: "Confirm your spot on the Acme Beta waitlist"; links: https:\/\/launch\.test\/v1\/waitlist\/confirm\?token=\S+ .*\(not sent without SMTP_URL; all mail: https:\/\/launch\.test\/dev\/mail\)$/,
    );
  });

  it('answers at a local address: localhost, a loopback address or our own host, whatever the port', async () => {
    for (const host of ['localhost:3000', 'localhost', '127.0.0.1:3000', '[::1]:3000', 'launch.test']) {
      const res = await devMail('application/json').set('Host', host);
      expect({ host, status: res.status }).toEqual({ host, status: 200 });
    }
  });

  it.each([
    ['X-Forwarded-For', '127.0.0.1'],
    ['Forwarded', 'for=127.0.0.1;proto=http'],
    ['X-Forwarded-Host', 'localhost:3000'],
    ['X-Real-IP', '127.0.0.1'],
  ])('is not found when a proxy passed the request on (%s), even from this machine', async (header, value) => {
    const res = await devMail('application/json').set(header, value).expect(404);
    expect(res.body).toMatchObject(NO_SUCH_ENDPOINT);
    expect(res.body.error.remediation).toBe('Check the method and the path against the API reference at /docs.');
  });

  it('is not found under a name that is not ours, as a page rebinding its DNS to this machine would send', async () => {
    for (const host of ['rebind.attacker.example', 'rebind.attacker.example:3000', 'localhost.attacker.example', '10.0.0.5']) {
      const res = await devMail('text/html').set('Host', host);
      expect({ host, status: res.status }).toEqual({ host, status: 404 });
      expect(res.body).toMatchObject(NO_SUCH_ENDPOINT);
    }
  });
});

describe('GET /dev/mail without DEV_MAIL, outside production', () => {
  let t: TestApp;
  const log = new LogLines();

  beforeAll(async () => {
    t = await TestApp.start({ env: { LOG_LEVEL: 'info' }, logDestination: log });
    t.app.flushLogs();
  });
  afterAll(() => t.close());

  it('does not exist, and the mail log line does not point at it', async () => {
    const seeded = await t.seedProject();
    await t.api.as(seeded.publishableKey).post('/v1/waitlist/signups').send({ email: 'dev@example.com' }).expect(201);
    await t.drainJobs();
    const res = await t.api.get('/dev/mail').set('Accept', 'application/json').expect(404);
    expect(res.body).toMatchObject(NO_SUCH_ENDPOINT);
    const mailLines = log.lines.filter((line) => line.context === 'MailOutbox');
    expect(mailLines).toHaveLength(1);
    expect(mailLines[0].msg).toMatch(/^Email to dev@example\.com: .*\(not sent without SMTP_URL\)$/);
  });
});

describe('GET /dev/mail with NODE_ENV=production', () => {
  let t: TestApp;
  const log = new LogLines();

  beforeAll(async () => {
    t = await TestApp.start({ env: { NODE_ENV: 'production', LOG_LEVEL: 'info' }, logDestination: log });
    t.app.flushLogs();
  });
  afterAll(() => t.close());

  it('does not exist, and the mail log names no recipient and no link', async () => {
    const seeded = await t.seedProject();
    await t.api.as(seeded.publishableKey).post('/v1/waitlist/signups').send({ email: 'prod@example.com' }).expect(201);
    await t.drainJobs();
    const res = await t.api.get('/dev/mail').set('Accept', 'application/json').expect(404);
    expect(res.body).toMatchObject(NO_SUCH_ENDPOINT);
    const mailLines = log.lines.filter((line) => line.context === 'MailOutbox');
    expect(mailLines).toHaveLength(1);
    expect(mailLines[0].msg).toMatch(/^Email "Confirm your spot on the .+ waitlist" \(mail_\w+\) kept in the mail outbox/);
    expect(JSON.stringify(mailLines)).not.toMatch(/prod@example\.com|token=/);
  });
});
