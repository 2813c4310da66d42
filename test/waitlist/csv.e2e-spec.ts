import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../../src/cli/cli-commands';
import { ContactEntity } from '../../src/contacts/entities/contact.entity';
import { EventEntity } from '../../src/events/entities/event.entity';
import { MailMessageEntity } from '../../src/infra/mail/entities/mail-message.entity';
import { parseCsv } from '../../src/waitlist/csv';
import { EXPORT_COLUMNS } from '../../src/waitlist/waitlist-csv';
import { SeededProject, TestApp } from '../support/test-app';
import { linkIn, mailsTo, signupRows } from './waitlist-test-helpers';

// Columns an import assigns anew: the rest must survive a round trip unchanged.
const ASSIGNED = ['position', 'referral_code', 'referral_count', 'referred_by', 'signup_id'];

function table(csv: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(csv).records.map((record) => record.cells);
  return rows.map((cells) => Object.fromEntries(header.map((column, index) => [column, cells[index]])));
}

function withoutAssigned(rows: Record<string, string>[]): Record<string, string>[] {
  return rows.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !ASSIGNED.includes(column))));
}

describe('waitlist CSV commands', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await TestApp.start();
    dir = mkdtempSync(join(tmpdir(), 'waitlist-csv-'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCommand(t.app, argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
    return { code, stdout, stderr };
  }

  async function counts(projectId: string) {
    return {
      events: await t.db.manager.countBy(EventEntity, { projectId }),
      mails: await t.db.manager.countBy(MailMessageEntity, { projectId }),
    };
  }

  describe('waitlist:export', () => {
    /**
     * Four people with values that need quoting or formula guards: first (confirmed, referred -dash),
     * -dash, +plus (invited) and gone (unsubscribed).
     */
    async function seedSource(): Promise<SeededProject> {
      const source = await t.seedProject({ plan: 'indie', name: 'CSV source' });
      const api = t.api.as(source.secretKey);
      const first = await api
        .post('/v1/waitlist/signups')
        .send({
          email: 'first@x.io',
          metadata: { company: 'Engines, "Analytical" Ltd', seats: 3, vip: true },
          source: { utm_source: 'news', utm_campaign: '=HYPERLINK("http://evil.example","click")', landing_path: '/join' },
        })
        .expect(201);
      await api.post('/v1/waitlist/signups').send({ email: '-dash@x.io', referrer_code: first.body.data.referral_code }).expect(201);
      await api
        .post('/v1/waitlist/signups')
        .send({ email: '+plus@x.io', metadata: { note: '@SUM(A1)' } })
        .expect(201);
      await api
        .post('/v1/waitlist/signups')
        .send({ email: 'gone@x.io', source: { referrer: 'https://a.example/?q=1,2' } })
        .expect(201);
      await api.post('/v1/waitlist/invites').send({ specific_email: '+plus@x.io' }).expect(200);
      await t.drainJobs();
      const [firstMail] = await mailsTo(t, source.project.id, 'first@x.io');
      await t.api.post(linkIn(firstMail.textBody, 'confirm')).expect(200);
      const [goneMail] = await mailsTo(t, source.project.id, 'gone@x.io');
      await t.api.post(linkIn(goneMail.textBody, 'unsubscribe')).expect(200);
      return source;
    }

    async function exportOf(source: SeededProject): Promise<string> {
      const file = join(dir, `${source.project.id}.csv`);
      expect((await cli('waitlist:export', '--project', source.project.id, '--file', file)).code).toBe(0);
      return readFileSync(file, 'utf8');
    }

    it('writes every signup in line order with a header, and prints one JSON object', async () => {
      const source = await seedSource();
      const file = join(dir, 'source.csv');
      const { code, stdout, stderr } = await cli('waitlist:export', '--project', source.project.id, '--file', file, '--json');
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(JSON.parse(stdout)).toEqual({ project_id: source.project.id, exported: 4, file });
      const exported = readFileSync(file, 'utf8');
      expect(exported.split('\r\n')[0]).toBe(EXPORT_COLUMNS.join(','));
      const rows = table(exported);
      const signups = await signupRows(t, source.project.id);
      expect(rows.map((row) => [row.position, row.email, row.status, row.confirmed])).toEqual([
        ['1', 'first@x.io', 'waiting', 'true'],
        ['2', "'-dash@x.io", 'waiting', 'false'],
        ['3', "'+plus@x.io", 'invited', 'false'],
        ['4', 'gone@x.io', 'unsubscribed', 'false'],
      ]);
      expect(rows[0]).toMatchObject({
        referral_count: '1',
        signup_id: signups[0].id,
        referral_code: signups[0].referralCode,
        utm_campaign: `'=HYPERLINK("http://evil.example","click")`,
      });
      expect(JSON.parse(rows[0].metadata)).toEqual({ company: 'Engines, "Analytical" Ltd', seats: 3, vip: true });
      expect(rows[1].referred_by).toBe(signups[0].id);
      expect(rows[3].referrer).toBe('https://a.example/?q=1,2');
    });

    it('never starts a cell with a formula character', async () => {
      const exported = await exportOf(await seedSource());
      for (const row of parseCsv(exported).records) {
        for (const cell of row.cells) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      }
    });

    it('finds the project by slug too, and refuses an unknown project', async () => {
      const source = await seedSource();
      const exported = await exportOf(source);
      const file = join(dir, 'by-slug.csv');
      expect((await cli('waitlist:export', '--project', source.project.slug, '--file', file)).code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(exported);
      expect(await cli('waitlist:export', '--project', 'prj_nope', '--file', file)).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('NOT_FOUND'),
      });
      expect(await cli('waitlist:export', '--file', file)).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('--project is required'),
      });
    });

    describe('waitlist:import', () => {
      it('imports an export into another project unchanged, with no events and no emails', async () => {
        const exported = await exportOf(await seedSource());
        const target = await t.seedProject({ plan: 'indie' });
        const file = join(dir, 'roundtrip.csv');
        writeFileSync(file, exported);
        const { code, stdout, stderr } = await cli('waitlist:import', '--project', target.project.id, '--file', file, '--json');
        expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
        expect(JSON.parse(stdout)).toEqual({ project_id: target.project.id, imported: 4, skipped_duplicates: 0, invalid: [] });
        expect(await counts(target.project.id)).toEqual({ events: 0, mails: 0 });
        await t.drainJobs();
        expect(await counts(target.project.id)).toEqual({ events: 0, mails: 0 });

        const back = join(dir, 'back.csv');
        expect((await cli('waitlist:export', '--project', target.project.id, '--file', back)).code).toBe(0);
        expect(withoutAssigned(table(readFileSync(back, 'utf8')))).toEqual(withoutAssigned(table(exported)));
        const rows = await signupRows(t, target.project.id);
        expect(rows.map((row) => [row.position, row.email, row.channel])).toEqual([
          [1, 'first@x.io', 'import'],
          [2, '-dash@x.io', 'import'],
          [3, '+plus@x.io', 'import'],
          [4, 'gone@x.io', 'import'],
        ]);
        const contacts = await t.db.manager.find(ContactEntity, { where: { projectId: target.project.id }, order: { email: 'ASC' } });
        expect(contacts.map((contact) => [contact.email, contact.stage, contact.consents.waitlist_emails?.status])).toEqual([
          ['+plus@x.io', 'invited', 'granted'],
          ['-dash@x.io', 'waitlist', 'granted'],
          ['first@x.io', 'waitlist', 'granted'],
          ['gone@x.io', 'waitlist', 'withdrawn'],
        ]);
      });

      it('places new people after the existing ones in file order, skips duplicates and reports bad lines', async () => {
        const target = await t.seedProject({ plan: 'indie' });
        await t.api.as(target.secretKey).post('/v1/waitlist/signups').send({ email: 'live@x.io' }).expect(201);
        const before = await counts(target.project.id);
        const file = join(dir, 'mixed.csv');
        writeFileSync(
          file,
          [
            'email,metadata,utm_source',
            'new1@x.io,,ads',
            'LIVE@x.io,,',
            'not-an-email,,',
            '"new2@x.io","{""plan"":""pro""}",',
            'new1@x.io,,',
            'new3@x.io,{broken,',
            '"new4@x.io",,"multi',
            'line"',
            '"oops"x,,',
            'new5@x.io,,',
          ].join('\n'),
        );
        const { code, stdout } = await cli('waitlist:import', '--project', target.project.id, '--file', file, '--json');
        expect(code).toBe(0);
        expect(JSON.parse(stdout)).toEqual({
          project_id: target.project.id,
          imported: 4,
          skipped_duplicates: 2,
          invalid: [
            { line: 4, reason: expect.stringContaining('email is not a valid email') },
            { line: 7, reason: 'metadata is not valid JSON' },
            { line: 10, reason: 'text after a closing quote' },
          ],
        });
        const rows = await signupRows(t, target.project.id);
        expect(rows.map((row) => [row.position, row.email])).toEqual([
          [1, 'live@x.io'],
          [2, 'new1@x.io'],
          [3, 'new2@x.io'],
          [4, 'new4@x.io'],
          [5, 'new5@x.io'],
        ]);
        expect(rows[1].source).toEqual({ utm_source: 'ads' });
        expect(rows[2].metadata).toEqual({ plan: 'pro' });
        expect(rows[3].source).toEqual({ utm_source: 'multi\nline' });
        expect(await counts(target.project.id)).toEqual(before);
        // Live signups continue after the imported ones.
        const next = await t.api.as(target.secretKey).post('/v1/waitlist/signups').send({ email: 'after@x.io' }).expect(201);
        expect(next.body.data.position).toBe(6);
      });

      it('refuses a file without an email column or with unknown columns', async () => {
        const target = await t.seedProject();
        const file = join(dir, 'bad-header.csv');
        writeFileSync(file, 'mail,name\na@x.io,Ada\n');
        expect(await cli('waitlist:import', '--project', target.project.id, '--file', file)).toMatchObject({
          code: 1,
          stderr: expect.stringContaining('VALIDATION_ERROR: Unknown column "mail"'),
        });
        writeFileSync(file, '');
        expect(await cli('waitlist:import', '--project', target.project.id, '--file', file)).toMatchObject({
          code: 1,
          stderr: expect.stringContaining('no header row'),
        });
        expect(await signupRows(t, target.project.id)).toEqual([]);
      });

      it('refuses a missing or unreadable file', async () => {
        const target = await t.seedProject();
        expect(await cli('waitlist:import', '--project', target.project.id)).toMatchObject({
          code: 2,
          stderr: expect.stringContaining('--file'),
        });
        expect(await cli('waitlist:import', '--project', target.project.id, '--file', join(dir, 'missing.csv'))).toMatchObject({
          code: 2,
          stderr: expect.stringContaining('cannot be read'),
        });
      });
    });
  });
});
