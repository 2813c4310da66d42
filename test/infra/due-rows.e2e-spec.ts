import { WorkerHost, getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { newId } from '../../src/common/ids/ids';
import { MailMessageEntity } from '../../src/infra/mail/entities/mail-message.entity';
import { MAIL_OUTBOX, MailService } from '../../src/infra/mail/mail.service';
import { DueRows } from '../../src/infra/queue/due-rows.service';
import { ABANDONED_ERROR, pendingColumns } from '../../src/infra/queue/due-rows.queries';
import { QUEUE_NAMES } from '../../src/infra/queue/job-catalog';
import { JOB_PROCESSORS } from '../../src/infra/queue/job.processor';
import { TestSmtpServer, startSmtpServer } from '../support/smtp-server';
import { TestApp } from '../support/test-app';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const LEASE = MAIL_OUTBOX.leaseMs;

/** A mail row written straight to the table, with no job: as after a crash or a queue flush. */
async function insertMail(
  t: TestApp,
  projectId: string,
  recipient: string,
  columns: Partial<MailMessageEntity> = {},
): Promise<MailMessageEntity> {
  const now = t.clock.now();
  const row = Object.assign(new MailMessageEntity(), {
    id: newId('mail'),
    projectId,
    kind: 'test.mail',
    recipient,
    subject: `Hello ${recipient}`,
    textBody: 'Plain body',
    htmlBody: null,
    headers: { 'X-Test': 'yes' },
    ...pendingColumns(now),
    sentAt: null,
    createdAt: now,
    ...columns,
  });
  await t.db.manager.insert(MailMessageEntity, row);
  return row;
}

const rowOf = (t: TestApp, id: string) => t.db.manager.findOneByOrFail(MailMessageEntity, { id });
const at = (start: Date, offsetMs: number) => new Date(start.getTime() + offsetMs);

// Workers off: no job and no sweeper touches the rows while a test claims them by hand.
describe('due rows: finding and claiming', () => {
  let t: TestApp;
  let dueRows: DueRows;
  let projectId: string;
  let start: Date;

  beforeAll(async () => {
    t = await TestApp.start({ env: { WORKERS: 'off' } });
    dueRows = t.get(DueRows);
    projectId = (await t.seedProject()).project.id;
  });
  beforeEach(() => {
    start = new Date();
    t.clock.freeze(start);
  });
  afterEach(() => t.clock.reset());
  afterAll(() => t.close());

  it('starts no worker where WORKERS is off', async () => {
    const processors = t.app.get<WorkerHost[]>(JOB_PROCESSORS);
    expect(processors).toHaveLength(QUEUE_NAMES.length);
    for (const processor of processors) expect(() => processor.worker).toThrow(/not yet been initialized/);
    expect(await t.app.get<Queue>(getQueueToken('mail')).getWorkersCount()).toBe(0);
  });

  it('finds due, unleased rows in batches, the longest overdue first', async () => {
    const long = new Date('2020-01-01T00:00:00.000Z');
    const first = await insertMail(t, projectId, 'a@example.com', { nextAttemptAt: at(long, 0) });
    const third = await insertMail(t, projectId, 'b@example.com', { nextAttemptAt: at(long, 2 * MINUTE) });
    const second = await insertMail(t, projectId, 'c@example.com', { nextAttemptAt: at(long, MINUTE) });
    const notDue = await insertMail(t, projectId, 'd@example.com', { nextAttemptAt: at(start, SECOND) });
    const leased = await insertMail(t, projectId, 'e@example.com', {
      nextAttemptAt: long,
      lockedUntil: at(start, 30 * SECOND),
      attempts: 1,
    });
    const sent = await insertMail(t, projectId, 'f@example.com', { nextAttemptAt: long, status: 'sent', attempts: 1 });
    const spent = await insertMail(t, projectId, 'g@example.com', { nextAttemptAt: long, attempts: MAIL_OUTBOX.maxAttempts });
    const mine = new Set([first, second, third, notDue, leased, sent, spent].map((row) => row.id));

    expect(await dueRows.findDue(MAIL_OUTBOX, 2)).toEqual([first.id, second.id]);
    const all = (await dueRows.findDue(MAIL_OUTBOX, 1_000)).filter((id) => mine.has(id));
    expect(all).toEqual([first.id, second.id, third.id]);
  });

  it('lets exactly one of 20 concurrent claims win, and counts one attempt', async () => {
    const row = await insertMail(t, projectId, 'race@example.com');
    const claims = await Promise.all(Array.from({ length: 20 }, () => dueRows.claim(MAIL_OUTBOX, row.id)));
    const winners = claims.filter((claim) => claim !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toBeInstanceOf(MailMessageEntity);
    expect(winners[0]).toMatchObject({
      id: row.id,
      recipient: 'race@example.com',
      headers: { 'X-Test': 'yes' },
      status: 'pending',
      attempts: 1,
      nextAttemptAt: start,
      lockedUntil: at(start, LEASE),
    });
    expect(await rowOf(t, row.id)).toMatchObject({ attempts: 1, lockedUntil: at(start, LEASE) });
  });

  it('holds a claimed row until its lease ends', async () => {
    const row = await insertMail(t, projectId, 'lease@example.com');
    expect(await dueRows.claim(MAIL_OUTBOX, row.id)).not.toBeNull();
    t.clock.freeze(at(start, LEASE - SECOND));
    expect(await dueRows.claim(MAIL_OUTBOX, row.id)).toBeNull();
    expect(await dueRows.findDue(MAIL_OUTBOX, 1_000)).not.toContain(row.id);
    t.clock.freeze(at(start, LEASE));
    expect(await dueRows.findDue(MAIL_OUTBOX, 1_000)).toContain(row.id);
    const retaken = await dueRows.claim(MAIL_OUTBOX, row.id);
    expect(retaken).toMatchObject({ attempts: 2, lockedUntil: at(start, 2 * LEASE) });
  });

  it('treats a lease further ahead than one lease length as expired after the clock went back', async () => {
    const row = await insertMail(t, projectId, 'back@example.com', { nextAttemptAt: at(start, -HOUR) });
    expect(await dueRows.claim(MAIL_OUTBOX, row.id)).toMatchObject({ lockedUntil: at(start, LEASE) });
    // A few seconds back is skew between workers, not a jump: the lease still holds.
    t.clock.freeze(at(start, -3 * SECOND));
    expect(await dueRows.claim(MAIL_OUTBOX, row.id)).toBeNull();
    t.clock.freeze(at(start, -10 * MINUTE));
    const retaken = await dueRows.claim(MAIL_OUTBOX, row.id);
    expect(retaken).toMatchObject({ attempts: 2, lockedUntil: at(start, -10 * MINUTE + LEASE) });
  });

  it('never runs a retry early when the clock goes back', async () => {
    const row = await insertMail(t, projectId, 'early@example.com', {
      attempts: 1,
      nextAttemptAt: at(start, MINUTE),
      lastError: 'timeout',
    });
    t.clock.freeze(at(start, -HOUR));
    expect(await dueRows.claim(MAIL_OUTBOX, row.id)).toBeNull();
    expect(await dueRows.findDue(MAIL_OUTBOX, 1_000)).not.toContain(row.id);
    t.clock.freeze(at(start, MINUTE - 1));
    expect(await dueRows.claim(MAIL_OUTBOX, row.id)).toBeNull();
    t.clock.freeze(at(start, MINUTE));
    expect(await dueRows.claim(MAIL_OUTBOX, row.id)).toMatchObject({ attempts: 2, lastError: 'timeout' });
  });

  it('ends leases and makes retries due when the clock jumps forward', async () => {
    const leased = await insertMail(t, projectId, 'forward-1@example.com');
    const waiting = await insertMail(t, projectId, 'forward-2@example.com', { attempts: 1, nextAttemptAt: at(start, 30 * MINUTE) });
    expect(await dueRows.claim(MAIL_OUTBOX, leased.id)).not.toBeNull();
    t.clock.freeze(at(start, 2 * HOUR));
    expect(await dueRows.claim(MAIL_OUTBOX, leased.id)).toMatchObject({ attempts: 2, lockedUntil: at(start, 2 * HOUR + LEASE) });
    expect(await dueRows.claim(MAIL_OUTBOX, waiting.id)).toMatchObject({ attempts: 2, lockedUntil: at(start, 2 * HOUR + LEASE) });
  });

  it('claims no row whose attempts are used up, nor one that is done', async () => {
    const spent = await insertMail(t, projectId, 'spent@example.com', { attempts: MAIL_OUTBOX.maxAttempts });
    const done = await insertMail(t, projectId, 'done@example.com', { status: 'sent', attempts: 1 });
    expect(await dueRows.claim(MAIL_OUTBOX, spent.id)).toBeNull();
    expect(await dueRows.claim(MAIL_OUTBOX, done.id)).toBeNull();
    expect(await rowOf(t, spent.id)).toMatchObject({ status: 'pending', attempts: MAIL_OUTBOX.maxAttempts, lockedUntil: null });
  });
});

describe('due rows: attempts, retries and the sweeper', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let projectId: string;
  let start: Date;

  beforeAll(async () => {
    smtp = await startSmtpServer({ refuse: (address) => (address.startsWith('busy') ? 451 : address.startsWith('gone') ? 550 : null) });
    t = await TestApp.start({ env: { SMTP_URL: smtp.url } });
    projectId = (await t.seedProject()).project.id;
  });
  beforeEach(() => {
    start = new Date();
    t.clock.freeze(start);
  });
  afterEach(() => t.clock.reset());
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const queueMail = (to: string) =>
    t.db.transaction((em) => t.get(MailService).queueMail(em, { projectId, kind: 'test.mail', to, subject: `Hello ${to}`, text: 'x' }));

  it('runs a worker on every queue of the catalog', async () => {
    // Asked of the workers themselves: the PostgreSQL backend finds workers by connection name, and
    // on the embedded database every connection shares one session, so only one name shows there.
    const workers = t.app.get<WorkerHost[]>(JOB_PROCESSORS).map((processor) => processor.worker);
    expect(Object.fromEntries(workers.map((worker) => [worker.name, worker.isRunning()]))).toEqual(
      Object.fromEntries(QUEUE_NAMES.map((name) => [name, true])),
    );
    if (process.env.DATABASE_URL) {
      for (const name of QUEUE_NAMES) expect(await t.app.get<Queue>(getQueueToken(name)).getWorkersCount()).toBe(1);
    }
  });

  it('sends a row whose worker died mid-send exactly once, after its lease ends', async () => {
    const row = await insertMail(t, projectId, 'crash@example.com');
    expect(await t.get(DueRows).claim(MAIL_OUTBOX, row.id)).not.toBeNull(); // then the worker "dies"
    await t.drainJobs();
    expect(smtp.countTo('crash@example.com')).toBe(0);
    expect(await rowOf(t, row.id)).toMatchObject({ status: 'pending', attempts: 1, lockedUntil: at(start, LEASE) });

    t.clock.freeze(at(start, LEASE + SECOND));
    await t.drainJobs();
    await t.drainJobs();
    expect(smtp.countTo('crash@example.com')).toBe(1);
    expect(await rowOf(t, row.id)).toMatchObject({
      status: 'sent',
      attempts: 2,
      lockedUntil: null,
      lastError: null,
      sentAt: at(start, LEASE + SECOND),
    });
  });

  it('fails a row whose last attempt never reported back, instead of crash-looping', async () => {
    const row = await insertMail(t, projectId, 'poison@example.com', { attempts: MAIL_OUTBOX.maxAttempts - 1 });
    expect(await t.get(DueRows).claim(MAIL_OUTBOX, row.id)).toMatchObject({ attempts: MAIL_OUTBOX.maxAttempts });
    t.clock.freeze(at(start, LEASE + SECOND));
    await t.drainJobs();
    expect(smtp.countTo('poison@example.com')).toBe(0);
    expect(await rowOf(t, row.id)).toMatchObject({ status: 'failed', attempts: 5, lockedUntil: null, lastError: ABANDONED_ERROR });
  });

  it('retries after 1 min, 5 min, 30 min and 2 h, never early, then fails the row', async () => {
    const id = await queueMail('busy@example.com');
    await t.drainJobs();
    let row = await rowOf(t, id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: at(start, MINUTE), lockedUntil: null });
    expect(row.lastError).toContain('451');

    const delays = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR];
    let now = start;
    for (const [index, delay] of delays.entries()) {
      now = at(now, delay - SECOND);
      t.clock.freeze(now);
      await t.drainJobs();
      expect((await rowOf(t, id)).attempts).toBe(index + 1);
      now = at(now, SECOND);
      t.clock.freeze(now);
      await t.drainJobs();
      row = await rowOf(t, id);
      const next = delays[index + 1];
      if (next === undefined) expect(row).toMatchObject({ status: 'failed', attempts: 5, lockedUntil: null });
      else expect(row).toMatchObject({ status: 'pending', attempts: index + 2, nextAttemptAt: at(now, next), lockedUntil: null });
    }
    expect(row.lastError).toContain('451');
    t.clock.freeze(at(now, 24 * HOUR));
    await t.drainJobs();
    expect((await rowOf(t, id)).attempts).toBe(5);
    expect(smtp.countTo('busy@example.com')).toBe(0);
  });

  it('fails a row at once when the attempt says retrying cannot help', async () => {
    const id = await queueMail('gone@example.com');
    await t.drainJobs();
    const row = await rowOf(t, id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: start, lockedUntil: null, sentAt: null });
    expect(row.lastError).toContain('550');
    t.clock.freeze(at(start, 3 * HOUR));
    await t.drainJobs();
    expect((await rowOf(t, id)).attempts).toBe(1);
  });

  it('enqueues a row due later as one delayed { id } job and sends it at its due time', async () => {
    const queue = t.app.get<Queue>(getQueueToken('mail'));
    const row = await t.db.transaction(async (em) => {
      const scheduled = Object.assign(new MailMessageEntity(), {
        id: newId('mail'),
        projectId,
        kind: 'test.mail',
        recipient: 'later@example.com',
        subject: 'Later',
        textBody: 'x',
        htmlBody: null,
        headers: {},
        ...pendingColumns(at(start, HOUR)),
        sentAt: null,
        createdAt: start,
      });
      await em.insert(MailMessageEntity, scheduled);
      t.get(DueRows).enqueueAfterCommit(em, MAIL_OUTBOX, scheduled);
      t.get(DueRows).enqueueAfterCommit(em, MAIL_OUTBOX, scheduled);
      return scheduled;
    });
    const job = await queue.getJob(`mail.send-${row.id}`);
    expect(job).toMatchObject({ name: 'mail.send', data: { id: row.id }, delay: HOUR });
    expect(await job?.getState()).toBe('delayed');
    expect((await queue.getDelayed()).filter((delayed) => delayed.data.id === row.id)).toHaveLength(1);

    await t.drainJobs();
    expect(smtp.countTo('later@example.com')).toBe(0);
    t.clock.freeze(at(start, HOUR));
    await t.drainJobs();
    expect(smtp.countTo('later@example.com')).toBe(1);
    expect(await rowOf(t, row.id)).toMatchObject({ status: 'sent', attempts: 1, lockedUntil: null });
  });
});
