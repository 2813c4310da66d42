import { Parser } from 'htmlparser2';
import { ChangelogEntryEntity } from '../../src/changelog/entities/changelog-entry.entity';
import { ChangelogMailingEntity } from '../../src/changelog/entities/changelog-mailing.entity';
import { SubscriberMailings } from '../../src/changelog/subscribers/subscriber-mailings.service';
import { newId } from '../../src/common/ids/ids';
import { pendingColumns } from '../../src/infra/queue/due-rows.queries';
import type { PlanName } from '../../src/projects/plans';
import { SeededProject, TestApp } from '../support/test-app';
import { mailsOf, seedEntry, seedLabel, subscriberLinkIn, subscriberRows } from './subscribers-test-helpers';

const ENTRY_MAIL = 'changelog.entry';

/** What a mail client would make of the HTML: its elements, and attributes that run or load something. */
function activeParts(html: string): string[] {
  const found: string[] = [];
  const parser = new Parser({
    onopentag(name, attributes) {
      if (['script', 'img', 'iframe', 'object', 'embed', 'style'].includes(name)) found.push(`<${name}>`);
      for (const [attribute, value] of Object.entries(attributes)) {
        if (attribute.startsWith('on')) found.push(`${name} ${attribute}`);
        if (/^\s*(javascript|data|vbscript|blocked):/i.test(value)) found.push(`${name} ${attribute}=${value}`);
      }
    },
  });
  parser.write(html);
  parser.end();
  return found;
}

describe('subscriber emails of a published entry', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  const mailings = () => t.get(SubscriberMailings);

  async function follow(seeded: SeededProject, email: string, labels: string[] = []): Promise<string> {
    const res = await t.api.as(seeded.secretKey).post('/v1/changelog/subscribers').send({ email, labels }).expect(201);
    return res.body.data.id;
  }

  /** What publishing does: the mailing row in the publishing transaction, then the worker. */
  async function publish(entry: ChangelogEntryEntity): Promise<void> {
    await t.db.transaction((em) => mailings().queueForEntry(em, entry));
    await t.drainJobs();
  }

  async function mailingOf(entry: ChangelogEntryEntity): Promise<ChangelogMailingEntity> {
    return t.db.manager.findOneByOrFail(ChangelogMailingEntity, { entryId: entry.id });
  }

  async function recipients(projectId: string): Promise<string[]> {
    return (await mailsOf(t, projectId, ENTRY_MAIL)).map((mail) => mail.recipient).sort();
  }

  async function projectWithLabels(plan: PlanName = 'indie') {
    const seeded = await t.seedProject({ plan, name: 'Orbit', slug: `orbit-${newId('ce').slice(-8).toLowerCase()}` });
    const a = await seedLabel(t, seeded.project.id, 'alpha');
    const b = await seedLabel(t, seeded.project.id, 'beta');
    return { seeded, a, b };
  }

  it('emails the followers of a label and those who follow everything, once each, with working links', async () => {
    const { seeded, a } = await projectWithLabels();
    const alphaFan = await follow(seeded, 'alpha@example.com', ['alpha']);
    await follow(seeded, 'beta@example.com', ['beta']);
    await follow(seeded, 'all@example.com');
    await follow(seeded, 'both@example.com', ['alpha', 'beta']);
    // Unconfirmed (a browser signup nobody confirmed): nothing.
    await t.api.as(seeded.publishableKey).post('/v1/changelog/subscribers').send({ email: 'pending@example.com' }).expect(201);
    const entry = await seedEntry(t, seeded.project.id, {}, [a]);

    await publish(entry);

    expect(await recipients(seeded.project.id)).toEqual(['all@example.com', 'alpha@example.com', 'both@example.com']);
    const mailing = await mailingOf(entry);
    expect(mailing).toMatchObject({ status: 'sent', emailsQueued: 3 });
    const [mail] = (await mailsOf(t, seeded.project.id, ENTRY_MAIL)).filter((row) => row.recipient === 'alpha@example.com');
    expect(mail.subject).toBe('Dark mode (v2.0)');
    const publicUrl = `https://launch.test/changelog/${seeded.project.slug}/${entry.id}`;
    expect(mail.textBody).toContain('Everything is darker now.');
    expect(mail.textBody).toContain(`Read it online: ${publicUrl}`);
    expect(mail.htmlBody).toContain('<strong>darker</strong>');
    expect(mail.htmlBody).toContain(`href="${publicUrl}"`);
    const unsubscribe = subscriberLinkIn(mail.textBody, 'unsubscribe');
    expect(mail.headers).toEqual({
      'List-Unsubscribe': `<https://launch.test${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(mail.htmlBody).toContain(`href="https://launch.test${subscriberLinkIn(mail.textBody, 'preferences')}"`);

    await t.api.post(unsubscribe).type('form').send('List-Unsubscribe=One-Click').expect(200);
    expect((await subscriberRows(t, seeded.project.id)).map((row) => row.id)).not.toContain(alphaFan);

    // Publishing again (a retry of the publisher) makes no second mailing.
    await publish(entry);
    expect(await recipients(seeded.project.id)).toHaveLength(3);
  });

  it('sends an entry without labels only to those who follow everything', async () => {
    const { seeded } = await projectWithLabels();
    await follow(seeded, 'alpha@example.com', ['alpha']);
    await follow(seeded, 'all@example.com');
    await publish(await seedEntry(t, seeded.project.id));
    expect(await recipients(seeded.project.id)).toEqual(['all@example.com']);
  });

  it('resumes after a crash between batches without emailing anyone twice', async () => {
    const { seeded, a } = await projectWithLabels();
    for (let n = 1; n <= 5; n += 1) await follow(seeded, `p${n}@example.com`, n % 2 ? ['alpha'] : []);
    const entry = await seedEntry(t, seeded.project.id, {}, [a]);
    // The mailing row as publishing writes it, but no worker woken: the test plays the worker.
    const now = t.clock.now();
    const mailing = Object.assign(new ChangelogMailingEntity(), {
      id: newId('cml'),
      projectId: seeded.project.id,
      entryId: entry.id,
      cursor: null,
      emailsQueued: 0,
      ...pendingColumns(now),
      createdAt: now,
    });
    await t.db.manager.insert(ChangelogMailingEntity, mailing);

    // One batch of 2 commits, then the worker "dies".
    expect(await mailings().writeNextBatch(mailing.id, seeded.project, 2)).toBe(false);
    expect(await recipients(seeded.project.id)).toEqual(['p1@example.com', 'p2@example.com']);
    const [, second] = await subscriberRows(t, seeded.project.id);
    expect(await mailingOf(entry)).toMatchObject({ status: 'pending', emailsQueued: 2, cursor: second.id });

    // Two workers racing over the rest still write each email once.
    await Promise.all([1, 2, 3].map(() => mailings().writeNextBatch(mailing.id, seeded.project, 2)));
    // The sweeper finds the pending row and a worker finishes it.
    await t.drainJobs();

    expect(await recipients(seeded.project.id)).toEqual([
      'p1@example.com',
      'p2@example.com',
      'p3@example.com',
      'p4@example.com',
      'p5@example.com',
    ]);
    expect(await mailingOf(entry)).toMatchObject({ status: 'sent', emailsQueued: 5 });
  });

  it.each<[string, Partial<ChangelogEntryEntity>, PlanName]>([
    ['a signed-in entry', { audience: 'signed_in' }, 'indie'],
    ['a segment entry', { audience: 'segment', segment: { match: 'all', rules: [] } }, 'builder'],
    ['an entry archived before the emails went out', { status: 'archived' }, 'indie'],
    ['an entry without notify_subscribers', { notifySubscribers: false }, 'indie'],
    ['an expired entry', { expiresAt: new Date(Date.now() - 60_000) }, 'indie'],
    ['an entry of a Free project (subscriber emails start on Indie)', {}, 'free'],
  ])('sends nothing for %s', async (_case, overrides, plan) => {
    const { seeded } = await projectWithLabels(plan);
    await follow(seeded, 'all@example.com');
    const entry = await seedEntry(t, seeded.project.id, overrides);
    await publish(entry);
    expect(await recipients(seeded.project.id)).toEqual([]);
    expect(await mailingOf(entry)).toMatchObject({ status: 'sent', emailsQueued: 0 });
  });

  it('keeps javascript: links, data: images and raw <script> written straight into the database out of the email', async () => {
    const { seeded } = await projectWithLabels();
    await follow(seeded, 'all@example.com');
    const entry = await seedEntry(t, seeded.project.id, {
      title: 'Fixes <script>alert("title")</script>',
      bodyMarkdown: [
        'Hello <script>alert(1)</script>',
        '[click](javascript:alert(2)) [ref][r] <a href="javascript:alert(3)">raw</a>',
        '![pixel](data:image/png;base64,AAAA) <img src="x" onerror="alert(4)">',
        '',
        '[r]: JaVaScRiPt:alert(5)',
      ].join('\n'),
    });
    await publish(entry);
    const [mail] = await mailsOf(t, seeded.project.id, ENTRY_MAIL);
    expect(activeParts(mail.htmlBody ?? '')).toEqual([]);
    expect(mail.htmlBody).not.toMatch(/javascript:|data:image/i);
    // The title is plain text: escaped in the HTML, shown as typed in the subject and the text's first line.
    const [firstLine, ...bodyLines] = mail.textBody.split('\n');
    expect(firstLine).toBe('Fixes <script>alert("title")</script> (v2.0)');
    expect(bodyLines.join('\n')).not.toMatch(/<script|javascript:|data:image|<img/i);
    expect(mail.htmlBody).toContain('Fixes &lt;script&gt;');
    expect(mail.textBody).toContain('Hello');
  });
});
