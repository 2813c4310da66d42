import { Client } from 'pg';
import { Database } from '../../src/infra/database/database.service';
import { MailMessageEntity } from '../../src/infra/mail/entities/mail-message.entity';
import { MailService } from '../../src/infra/mail/mail.service';
import { QueueService } from '../../src/infra/queue/queue.service';
import { TestSmtpServer, startSmtpServer } from '../support/smtp-server';
import { SeededProject, TestApp } from '../support/test-app';

function queueTestMail(t: TestApp, projectId: string, to: string): Promise<string> {
  return t.db.transaction((em) =>
    t
      .get(MailService)
      .queueMail(em, { projectId, kind: 'test.mail', to, subject: `Hello ${to}`, text: 'Plain body', html: '<p>HTML body</p>' }),
  );
}

describe('mail over SMTP', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let project: SeededProject;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await TestApp.start({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Launch <launch@example.com>' } });
  });
  beforeEach(async () => {
    project = await t.seedProject();
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('delivers a queued email through the SMTP server and marks it sent', async () => {
    const id = await queueTestMail(t, project.project.id, 'reader@example.com');
    await t.drainJobs();
    const message = smtp.received.find((mail) => mail.to.includes('reader@example.com'));
    expect(message).toBeDefined();
    expect(message?.from).toBe('launch@example.com');
    expect(message?.raw).toContain('Subject: Hello reader@example.com');
    expect(message?.raw.toLowerCase()).toContain(`x-mail-id: ${id}`.toLowerCase());
    const row = await t.db.manager.findOneByOrFail(MailMessageEntity, { id });
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lockedUntil: null, lastError: null });
  });

  it('sends nothing when the transaction that wrote the email rolls back', async () => {
    await expect(
      t.db.transaction(async (em) => {
        await t
          .get(MailService)
          .queueMail(em, { projectId: project.project.id, kind: 'test.mail', to: 'ghost@example.com', subject: 'x', text: 'x' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await t.drainJobs();
    expect(smtp.received.filter((mail) => mail.to.includes('ghost@example.com'))).toEqual([]);
    expect(await t.db.manager.countBy(MailMessageEntity, { recipient: 'ghost@example.com' })).toBe(0);
  });

  it('re-enqueues an email whose job was lost (the sweeper)', async () => {
    const row = Object.assign(new MailMessageEntity(), {
      id: 'mail_01JLOSTJOB0000000000000000',
      projectId: project.project.id,
      kind: 'test.mail',
      recipient: 'lost@example.com',
      subject: 'Lost job',
      textBody: 'x',
      htmlBody: null,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: t.clock.now(),
      lockedUntil: null,
      lastError: null,
      sentAt: null,
      createdAt: t.clock.now(),
    });
    await t.db.manager.insert(MailMessageEntity, row); // no job: as after a crash or a queue flush
    await t.drainJobs();
    expect(smtp.received.some((mail) => mail.to.includes('lost@example.com'))).toBe(true);
    expect((await t.db.manager.findOneByOrFail(MailMessageEntity, { id: row.id })).status).toBe('sent');
  });
});

describe('mail when the SMTP server is down', () => {
  let t: TestApp;
  let project: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start({ env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
  });
  beforeEach(async () => {
    project = await t.seedProject();
  });
  afterAll(() => t.close());

  it('records the failure and retries on its own schedule', async () => {
    const id = await queueTestMail(t, project.project.id, 'retry@example.com');
    await t.drainJobs();
    const failed = await t.db.manager.findOneByOrFail(MailMessageEntity, { id });
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, lockedUntil: null });
    expect(failed.lastError).toBeTruthy();
    expect(failed.nextAttemptAt.getTime() - t.clock.now().getTime()).toBeGreaterThan(50_000);
    await t.drainJobs(); // not due yet: nothing happens
    expect((await t.db.manager.findOneByOrFail(MailMessageEntity, { id })).attempts).toBe(1);
    t.clock.advance(61_000);
    try {
      await t.drainJobs();
      expect((await t.db.manager.findOneByOrFail(MailMessageEntity, { id })).attempts).toBe(2);
    } finally {
      t.clock.reset();
    }
  });
});

describe('mail without SMTP_URL and jobs without Redis', () => {
  let t: TestApp;
  let project: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start({ env: { REDIS_URL: '' } });
  });
  beforeEach(async () => {
    project = await t.seedProject();
  });
  afterAll(() => t.close());

  it("keeps the email in the outbox, logged, using BullMQ's PostgreSQL backend", async () => {
    expect(t.get(QueueService).backend).toBe('postgres');
    const id = await queueTestMail(t, project.project.id, 'outbox@example.com');
    await t.drainJobs();
    const row = await t.db.manager.findOneByOrFail(MailMessageEntity, { id });
    expect(row).toMatchObject({ status: 'logged', attempts: 1, textBody: 'Plain body', htmlBody: '<p>HTML body</p>' });
    expect(row.sentAt).toBeInstanceOf(Date);
  });
});

describe('job catalog', () => {
  it('has no job left waiting once the queues are drained', async () => {
    const t = await TestApp.start();
    try {
      expect(t.get(Database)).toBeDefined();
      await t.drainJobs();
      expect(await t.get(QueueService).pendingJobCount()).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('names the jobs still pending, so a test that waited too long says on what', async () => {
    // No workers: what is added stays waiting.
    const t = await TestApp.start({ env: { WORKERS: 'off' } });
    try {
      const queue = t.get(QueueService);
      await queue.enqueue('mail.send', { id: 'mail_1' }, { dedupeId: 'mail_1' });
      await queue.enqueue('webhooks.deliver', { id: 'whd_1' }, { dedupeId: 'whd_1', delayMs: 60_000 });
      expect(await queue.pendingJobCount()).toBe(1);
      expect(await queue.pendingJobs()).toEqual(['mail/mail.send-mail_1 (waiting)']);
      await expect(t.drainJobs(100)).rejects.toThrow(/^jobs still pending after 100 ms: mail\/mail\.send-mail_1 \(waiting\)$/);
    } finally {
      await t.close();
    }
  });
});

describe('shutdown', () => {
  it('lets a running job record its result before the database closes', async () => {
    let sending!: () => void;
    const inFlight = new Promise<void>((resolve) => (sending = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const smtp = await startSmtpServer({ beforeAccept: () => (sending(), gate) });
    const t = await TestApp.start({ env: { SMTP_URL: smtp.url } });
    try {
      const { project } = await t.seedProject();
      const id = await queueTestMail(t, project.id, 'last@example.com');
      await inFlight;
      const closing = t.app.close();
      setTimeout(release, 200); // lets the shutdown reach the database, were it to close first
      await closing;
      const client = new Client({ connectionString: t.config.databaseUrl ?? undefined });
      await client.connect();
      const { rows } = await client.query('SELECT status, attempts, locked_until FROM mail_messages WHERE id = $1', [id]);
      await client.end();
      expect(rows).toEqual([{ status: 'sent', attempts: 1, locked_until: null }]);
      expect(smtp.countTo('last@example.com')).toBe(1);
    } finally {
      release();
      await t.close();
      await smtp.close();
    }
  });
});
