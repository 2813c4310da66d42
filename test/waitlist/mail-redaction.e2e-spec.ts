import { MailMessageEntity } from '../../src/infra/mail/entities/mail-message.entity';
import { TestSmtpServer, startSmtpServer } from '../support/smtp-server';
import { SeededProject, TestApp } from '../support/test-app';
import { mailsTo, signupByEmail } from './waitlist-test-helpers';

/** Unfolds headers and undoes quoted-printable soft breaks and =3D, so links in the raw message can be read back. */
function decodeRaw(raw: string): string {
  return raw
    .replace(/\r?\n[ \t]+/g, ' ')
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=');
}

describe('waitlist emails once sent', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let seeded: SeededProject;
  let refusing = false;

  beforeAll(async () => {
    smtp = await startSmtpServer({ refuse: () => (refusing ? 451 : null) });
    t = await TestApp.start({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(async () => {
    refusing = false;
    seeded = await t.seedProject({ plan: 'indie', name: 'Redacted' });
  });

  it('keep no link token in the stored row after the SMTP server accepted them, and the delivered links work', async () => {
    await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email: 'sent@x.io' }).expect(201);
    await t.drainJobs();
    const [row] = await mailsTo(t, seeded.project.id, 'sent@x.io');
    expect(row).toMatchObject({ status: 'sent', subject: 'Confirm your spot on the Redacted waitlist', htmlBody: null, headers: {} });
    expect(row.textBody).toBe('[removed after delivery]');
    expect(JSON.stringify(row)).not.toContain('token=');

    const delivered = decodeRaw(smtp.received.find((mail) => mail.to.includes('sent@x.io'))?.raw ?? '');
    expect(delivered).toMatch(/List-Unsubscribe:\s*<https:\/\/launch\.test\/v1\/waitlist\/unsubscribe\?token=[\w-]+>/);
    const confirm = /https:\/\/launch\.test(\/v1\/waitlist\/confirm\?token=[\w-]+)/.exec(delivered)?.[1];
    expect(confirm).toBeDefined();
    await t.api.post(confirm as string).expect(200);
    expect((await signupByEmail(t, seeded.project.id, 'sent@x.io')).confirmedAt).toBeInstanceOf(Date);
  });

  it('keep everything a retry needs while the SMTP server refuses for now', async () => {
    refusing = true;
    await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email: 'later@x.io' }).expect(201);
    await t.drainJobs();
    const [row] = await mailsTo(t, seeded.project.id, 'later@x.io');
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.textBody).toContain('/v1/waitlist/confirm?token=');
    expect(row.headers['List-Unsubscribe']).toContain('/v1/waitlist/unsubscribe?token=');

    refusing = false;
    await t.db.manager.update(MailMessageEntity, { id: row.id }, { nextAttemptAt: new Date(0) });
    await t.drainJobs();
    const sent = await t.db.manager.findOneByOrFail(MailMessageEntity, { id: row.id });
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, textBody: '[removed after delivery]', htmlBody: null, headers: {} });
    expect(smtp.countTo('later@x.io')).toBe(1);
  });
});
