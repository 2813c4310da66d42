import { NotificationEntity } from '../../src/notifications/entities/notification.entity';
import Parser from 'rss-parser';
import { EventEntity } from '../../src/events/entities/event.entity';
import { MailMessageEntity } from '../../src/infra/mail/entities/mail-message.entity';
import { SeededProject, TestApp } from '../support/test-app';
import { unsafeMarkup } from '../support/html-safety';

/**
 * The changelog end to end, through the owner API only: what one publish does on every surface
 * (public JSON, publishable list, hosted page, the three feeds, subscriber email, bell request,
 * event, feedback link), and that archiving and expiry take the entry off all of them at once.
 */
describe('changelog, end to end', () => {
  let t: TestApp;
  let seeded: SeededProject;
  const parser = new Parser();

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    seeded = await t.seedProject({ plan: 'indie' });
  });

  const owner = () => t.api.as(seeded.secretKey);

  /** The ids each public surface shows now, in its order. */
  async function surfaces(slug: string): Promise<Record<string, string[]>> {
    const json = await t.api.get(`/public/changelog/${slug}`).expect(200);
    const listed = await t.api.as(seeded.publishableKey).get('/v1/changelog/entries').expect(200);
    const page = await t.api.get(`/changelog/${slug}`).expect(200);
    const rss = await parser.parseString((await t.api.get(`/public/changelog/${slug}/rss.xml`).expect(200)).text);
    const atom = await parser.parseString((await t.api.get(`/public/changelog/${slug}/atom.xml`).expect(200)).text);
    const jsonFeed = JSON.parse((await t.api.get(`/public/changelog/${slug}/feed.json`).expect(200)).text) as { items: { id: string }[] };
    const idOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
    return {
      json: json.body.data.map((entry: { id: string }) => entry.id),
      publishable: listed.body.data.map((entry: { id: string }) => entry.id),
      page: [...page.text.matchAll(/href="[^"]*\/(ce_[0-9A-Z]{26})"/g)]
        .map((match) => match[1])
        .filter((id, i, all) => all.indexOf(id) === i),
      rss: rss.items.map((item) => idOf(item.link ?? '')),
      atom: atom.items.map((item) => idOf(item.link ?? '')),
      jsonFeed: jsonFeed.items.map((item) => idOf(item.id)),
    };
  }

  it('one publish reaches every surface, the subscribers, the bell and the event stream, once', async () => {
    const slug = seeded.project.slug;
    await owner().post('/v1/changelog/labels').send({ name: 'API' }).expect(201);
    await owner().post('/v1/changelog/labels').send({ name: 'Billing' }).expect(201);
    await owner()
      .post('/v1/changelog/subscribers')
      .send({ email: 'api-fan@example.com', labels: ['api'] })
      .expect(201);
    await owner()
      .post('/v1/changelog/subscribers')
      .send({ email: 'billing-fan@example.com', labels: ['billing'] })
      .expect(201);
    await owner().post('/v1/changelog/subscribers').send({ email: 'everything@example.com' }).expect(201);

    const older = await owner()
      .post('/v1/changelog/entries')
      .send({ title: 'Older news', body_markdown: 'Quiet fixes.', category: 'fix' })
      .expect(201);
    t.clock.advance(60_000);
    const created = await owner()
      .post('/v1/changelog/entries')
      .send({
        title: 'Webhooks for everyone',
        body_markdown: 'Signed **webhooks** with retries. [Docs](https://docs.example.com/webhooks)',
        category: 'feature',
        version: '2.0.0',
        labels: ['api'],
        notify_subscribers: true,
        notify_in_app: true,
      })
      .expect(201);
    const entry = created.body.data;
    expect(entry).toMatchObject({ status: 'published', public_url: expect.stringMatching(new RegExp(`/changelog/${slug}/${entry.id}$`)) });

    // Every surface shows the same two entries, newest first.
    const expected = [entry.id, older.body.data.id];
    expect(await surfaces(slug)).toEqual({
      json: expected,
      publishable: expected,
      page: expected,
      rss: expected,
      atom: expected,
      jsonFeed: expected,
    });
    const entryPage = await t.api.get(new URL(entry.public_url).pathname).expect(200);
    expect(entryPage.text).toContain('Webhooks for everyone');
    expect(entryPage.text).toContain('<strong>webhooks</strong>');
    expect(unsafeMarkup(entryPage.text, 1)).toEqual([]);

    // Emails: the followers of `api` and those who follow everything, once each.
    await t.drainJobs();
    const mails = await t.db.manager.find(MailMessageEntity, { where: { projectId: seeded.project.id, kind: 'changelog.entry' } });
    expect(mails.map((mail) => mail.recipient).sort()).toEqual(['api-fan@example.com', 'everything@example.com']);
    expect(mails.every((mail) => mail.subject.includes('Webhooks for everyone'))).toBe(true);

    // One bell broadcast and one event, and saving the entry again adds neither.
    await owner()
      .patch(`/v1/changelog/entries/${entry.id}`)
      .send({ pinned: true, labels: ['api', 'billing'] })
      .expect(200);
    const bell = await t.db.manager.find(NotificationEntity, { where: { projectId: seeded.project.id } });
    expect(bell).toEqual([
      expect.objectContaining({
        kind: 'broadcast',
        changelogEntryId: entry.id,
        title: 'Webhooks for everyone',
        body: 'Signed webhooks with retries. Docs',
        actionUrl: entry.public_url,
        category: 'changelog',
        status: 'visible',
        usageMonth: null,
      }),
    ]);
    const events = await t.db.manager.find(EventEntity, { where: { projectId: seeded.project.id, type: 'changelog.entry.published' } });
    expect(events.map((event) => (event.data as { entry_id: string }).entry_id).sort()).toEqual([...expected].sort());

    // Feedback about the entry keeps the link and lists by it.
    await t.api
      .as(seeded.publishableKey)
      .post('/v1/feedback')
      .send({ feedback_text: 'The new webhooks are great, thank you!', changelog_entry_id: entry.id })
      .expect(201);
    const feedback = await owner().get(`/v1/feedback?changelog_entry_id=${entry.id}`).expect(200);
    expect(feedback.body.data).toHaveLength(1);
  });

  it('archiving or expiry takes an entry off every surface at once, and its page answers 404', async () => {
    const slug = seeded.project.slug;
    const post = (title: string) =>
      owner()
        .post('/v1/changelog/entries')
        .send({ title, body_markdown: `${title}.`, category: 'improvement' })
        .expect(201);
    const staying = (await post('Staying')).body.data;
    const archived = (await post('Archived soon')).body.data;
    const expiring = (await post('Expiring soon')).body.data;
    await owner()
      .patch(`/v1/changelog/entries/${expiring.id}`)
      .send({ expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString() })
      .expect(200);
    expect((await surfaces(slug)).json).toHaveLength(3);

    await owner().post(`/v1/changelog/entries/${archived.id}/archive`).expect(200);
    t.clock.advance(61_000);

    const only = [staying.id];
    expect(await surfaces(slug)).toEqual({ json: only, publishable: only, page: only, rss: only, atom: only, jsonFeed: only });
    await t.api.get(new URL(archived.public_url).pathname).expect(404);
    await t.api.get(new URL(expiring.public_url).pathname).expect(404);
  });
});
