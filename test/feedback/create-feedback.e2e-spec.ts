import { EntityManager } from 'typeorm';
import { ContactEntity } from '../../src/contacts/entities/contact.entity';
import { EventEntity } from '../../src/events/entities/event.entity';
import { PublishedChangelogEntries } from '../../src/changelog/entries/published-entries.service';
import { FeedbackEntity } from '../../src/feedback/entities/feedback.entity';
import { FeedbackService } from '../../src/feedback/feedback.service';
import { SeededProject, TestApp } from '../support/test-app';

const FEEDBACK_ID = /^fb_[0-9A-HJKMNP-TV-Z]{26}$/;
const EVENT_FIELDS = [
  'classification',
  'confidence',
  'created_at',
  'feedback_id',
  'feedback_text',
  'has_email',
  'page_url',
  'rating',
  'summary',
  'user_id',
];
const CRASH_REPORT = 'The export button crashes the whole app every single time I click it.';

describe('POST /v1/feedback', () => {
  let t: TestApp;
  let seeded: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());
  // A project of its own for every test, so each runs alone or in any order.
  beforeEach(async () => {
    seeded = await t.seedProject({ plan: 'indie' });
  });

  const send = (body: Record<string, unknown>, key = seeded.secretKey) => t.api.as(key).post('/v1/feedback').send(body);
  const eventFor = (feedbackId: string) =>
    t.db.manager
      .createQueryBuilder(EventEntity, 'e')
      .where('e.type = :type', { type: 'feedback.created' })
      .andWhere(`e.data ->> 'feedback_id' = :feedbackId`, { feedbackId })
      .getOneOrFail();

  describe('happy path', () => {
    it('stores, classifies and answers the record without the email', async () => {
      const res = await send({
        feedback_text: `  ${CRASH_REPORT}\n`,
        user_id: 'user_42',
        email: 'Ada.Lovelace@Example.com',
        page_url: 'https://app.example.com/settings/export?tab=pdf',
        category_hint: 'bug',
        rating: 2,
      }).expect(201);
      expect(res.body).toEqual({
        data: {
          feedback_id: expect.stringMatching(FEEDBACK_ID),
          feedback_text: CRASH_REPORT,
          classification: 'bug',
          confidence: expect.any(Number),
          summary: CRASH_REPORT,
          user_id: 'user_42',
          page_url: 'https://app.example.com/settings/export?tab=pdf',
          rating: 2,
          category_hint: 'bug',
          changelog_entry_id: null,
          has_email: true,
          created_at: expect.any(String),
        },
        error: null,
      });
      expect(JSON.stringify(res.body).toLowerCase()).not.toContain('ada.lovelace@example.com');
      const row = await t.db.manager.findOneByOrFail(FeedbackEntity, { id: res.body.data.feedback_id });
      expect(row).toMatchObject({ projectId: seeded.project.id, email: 'ada.lovelace@example.com', feedbackText: CRASH_REPORT });
      expect(new Date(res.body.data.created_at).toISOString()).toBe(res.body.data.created_at);
    });

    it('accepts the publishable key, since browsers send feedback', async () => {
      const res = await send({ feedback_text: 'Love the new dashboard, it is so fast now!' }, seeded.publishableKey).expect(201);
      expect(res.body.data).toMatchObject({ classification: 'praise', has_email: false, user_id: null, rating: null, page_url: null });
      expect(res.body.data).not.toHaveProperty('email');
    });

    it('treats null optional fields as absent', async () => {
      const res = await send({
        feedback_text: 'Where can I change the language of the emails?',
        user_id: null,
        email: null,
        page_url: null,
        category_hint: null,
        rating: null,
        changelog_entry_id: null,
      }).expect(201);
      expect(res.body.data).toMatchObject({ user_id: null, page_url: null, category_hint: null, rating: null, has_email: false });
    });

    it('accepts the boundaries: 10 and 2000 characters counted as code points, user_id 256, page_url 2048, email 254', async () => {
      const longUrl = `https://example.com/${'p'.repeat(2048 - 'https://example.com/'.length)}`;
      const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.io`;
      expect(email).toHaveLength(254);
      await send({ feedback_text: '0123456789', user_id: 'u'.repeat(256), page_url: longUrl, email }).expect(201);
      await send({ feedback_text: 'x'.repeat(2000) }).expect(201);
      await send({ feedback_text: '👍'.repeat(10) }).expect(201);
      await send({ feedback_text: '🎉'.repeat(2000) }).expect(201);
      await send({ feedback_text: 'Works on my machine.', page_url: 'http://localhost:3000/settings' }).expect(201);
    });

    it('drops a changelog_entry_id that is not a published entry of the project and keeps the feedback', async () => {
      const res = await send({
        feedback_text: 'The new export from this release is great.',
        changelog_entry_id: 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
      }).expect(201);
      expect(res.body.data.changelog_entry_id).toBeNull();
      const row = await t.db.manager.findOneByOrFail(FeedbackEntity, { id: res.body.data.feedback_id });
      expect(row.changelogEntryId).toBeNull();
      await send({ feedback_text: 'Not an id at all, but still feedback.', changelog_entry_id: 'whatever' }).expect(201);
      // NUL characters are refused everywhere by the kernel, ids included.
      const odd = await send({ feedback_text: 'An id with a NUL character.', changelog_entry_id: 'ce_\u0000' }).expect(400);
      expect(odd.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'changelog_entry_id' });
    });

    it('keeps a changelog_entry_id once the check says it is a published entry of the project', async () => {
      const entryId = 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1P';
      const check = t.app.get(PublishedChangelogEntries, { strict: false });
      const spy = jest
        .spyOn(check, 'isPublishedEntry')
        .mockImplementation((em, projectId, id) =>
          Promise.resolve(em instanceof EntityManager && projectId === seeded.project.id && id === entryId),
        );
      try {
        const kept = await send({ feedback_text: 'Love this release, the export is great.', changelog_entry_id: entryId }).expect(201);
        expect(kept.body.data.changelog_entry_id).toBe(entryId);
        const listed = await t.api.as(seeded.secretKey).get(`/v1/feedback?changelog_entry_id=${entryId}`).expect(200);
        expect(listed.body.data).toEqual([kept.body.data]);
        const counts = await t.get(FeedbackService).countForEntries(seeded.project.id, [entryId]);
        expect(counts.get(entryId)).toBe(1);
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('classification', () => {
    it.each([
      ['a crash report', { feedback_text: 'App crashes with a blank white screen whenever I open the settings page.' }, 'bug'],
      ['a double charge', { feedback_text: 'I was charged twice this month, please refund one of them.' }, 'billing'],
      ['a wish', { feedback_text: 'It would be great if you could add a dark mode.' }, 'feature_request'],
      ['a how-to question', { feedback_text: 'How do I invite a teammate to my workspace?' }, 'support'],
      ['spam', { feedback_text: 'Earn $5000 a week from home with our crypto trading bot, guaranteed profits' }, 'spam'],
      ['clear evidence over a wrong hint', { feedback_text: CRASH_REPORT, category_hint: 'praise' }, 'bug'],
      ['the hint on ambiguous text', { feedback_text: 'something about the notifications', category_hint: 'bug' }, 'bug'],
      ['spam over any hint', { feedback_text: 'qwertyuiop asdfghjkl zxcvbnm', category_hint: 'billing' }, 'spam'],
    ])('classifies %s', async (_name, body, expected) => {
      const res = await send(body).expect(201);
      expect(res.body.data.classification).toBe(expected);
      expect(res.body.data.confidence).toBeGreaterThanOrEqual(0);
      expect(res.body.data.confidence).toBeLessThanOrEqual(1);
      expect(res.body.data.summary.length).toBeGreaterThan(0);
      expect(res.body.data.summary.length).toBeLessThanOrEqual(140);
    });

    it('keeps the hint as sent even when the classifier disagrees', async () => {
      const res = await send({ feedback_text: CRASH_REPORT, category_hint: 'praise' }).expect(201);
      expect(res.body.data).toMatchObject({ classification: 'bug', category_hint: 'praise' });
    });

    it('summarizes long text in at most 140 characters', async () => {
      const text = `${'Exporting a large project to PDF '.repeat(10)}fails with an error. Other details follow.`;
      const res = await send({ feedback_text: text }).expect(201);
      expect(res.body.data.summary.length).toBeLessThanOrEqual(140);
      expect(res.body.data.summary.endsWith('…')).toBe(true);
    });
  });

  describe('feedback.created', () => {
    it('carries exactly the spec fields and never the email', async () => {
      const email = 'secret.person@example.org';
      const res = await send({
        feedback_text: 'I was charged twice for the same invoice this month.',
        email,
        user_id: 'user_billing',
        page_url: 'https://app.example.com/billing',
        rating: 1,
      }).expect(201);
      const event = await eventFor(res.body.data.feedback_id);
      expect(event.projectId).toBe(seeded.project.id);
      expect(Object.keys(event.data).sort()).toEqual(EVENT_FIELDS);
      // The answer minus what the event does not carry: the same values, read from the same row.
      const { category_hint: _hint, changelog_entry_id: _entry, ...expected } = res.body.data;
      expect(event.data).toEqual(expected);
      expect(event.data.has_email).toBe(true);
      expect(JSON.stringify(event.data)).not.toContain(email);
      expect(JSON.stringify(event.data)).not.toContain('secret.person');
    });

    it('says has_email false when no email was given', async () => {
      const res = await send({ feedback_text: 'Please add keyboard shortcuts to the editor.' }).expect(201);
      const event = await eventFor(res.body.data.feedback_id);
      expect(event.data).toMatchObject({ has_email: false, user_id: null, page_url: null, rating: null });
    });

    it('is not written when the request fails validation', async () => {
      await send({ feedback_text: 'too short' }).expect(400);
      expect(await t.db.manager.countBy(EventEntity, { projectId: seeded.project.id, type: 'feedback.created' })).toBe(0);
    });
  });

  describe('contacts', () => {
    it('links the email and user id of a secret-key call on one lead contact', async () => {
      await send({ feedback_text: 'Please add an export to CSV for reports.', email: 'Linked@Example.com', user_id: 'user_linked' }).expect(
        201,
      );
      const contacts = await t.db.manager.findBy(ContactEntity, { projectId: seeded.project.id, userId: 'user_linked' });
      expect(contacts).toHaveLength(1);
      expect(contacts[0]).toMatchObject({ email: 'linked@example.com', userId: 'user_linked', stage: 'lead' });
    });

    it('upserts a contact from an email alone or a user id alone', async () => {
      await send({ feedback_text: 'Your onboarding emails are really helpful.', email: 'only-email@example.com' }).expect(201);
      await send({ feedback_text: 'Your onboarding emails are really helpful.', user_id: 'only_user' }).expect(201);
      expect(await t.db.manager.findOneBy(ContactEntity, { projectId: seeded.project.id, email: 'only-email@example.com' })).toMatchObject({
        userId: null,
        stage: 'lead',
      });
      expect(await t.db.manager.findOneBy(ContactEntity, { projectId: seeded.project.id, userId: 'only_user' })).toMatchObject({
        email: null,
        stage: 'lead',
      });
    });

    it('never links an email to a user id sent by a browser (publishable key)', async () => {
      await send({ feedback_text: 'Please add an export to CSV for reports.', user_id: 'victim_user' }).expect(201);
      await send(
        { feedback_text: 'Please add an export to CSV for reports.', email: 'attacker@example.com', user_id: 'victim_user' },
        seeded.publishableKey,
      ).expect(201);
      const victim = await t.db.manager.findOneByOrFail(ContactEntity, { projectId: seeded.project.id, userId: 'victim_user' });
      expect(victim.email).toBeNull();
      const other = await t.db.manager.findOneByOrFail(ContactEntity, { projectId: seeded.project.id, email: 'attacker@example.com' });
      expect(other).toMatchObject({ userId: null, stage: 'lead' });
    });

    it('never moves a contact back to lead', async () => {
      await t.api
        .as(seeded.secretKey)
        .post('/v1/analytics/identify')
        .send({ user_id: 'user_known', email: 'known@example.com' })
        .expect(200);
      await send({ feedback_text: 'The search is slow on large projects.', user_id: 'user_known', email: 'known@example.com' }).expect(201);
      const contact = await t.db.manager.findOneByOrFail(ContactEntity, { projectId: seeded.project.id, userId: 'user_known' });
      expect(contact).toMatchObject({ email: 'known@example.com', stage: 'user' });
    });

    it('creates no contact when neither email nor user id is given', async () => {
      await send({ feedback_text: 'Anonymous thoughts about the pricing page.' }).expect(201);
      expect(await t.db.manager.countBy(ContactEntity, { projectId: seeded.project.id })).toBe(0);
    });
  });

  describe('idempotency', () => {
    it('replays the original answer for a retry and creates nothing new', async () => {
      const body = { feedback_text: 'The calendar view shows the wrong week.', email: 'retry@example.com' };
      const first = await send(body).set('Idempotency-Key', 'fb-retry-1').expect(201);
      const replay = await send(body).set('Idempotency-Key', 'fb-retry-1').expect(201);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.headers['x-request-id']).toBe(first.headers['x-request-id']);
      expect(await t.db.manager.countBy(FeedbackEntity, { projectId: seeded.project.id })).toBe(1);
      expect(await t.db.manager.countBy(EventEntity, { projectId: seeded.project.id })).toBe(1);
    });

    it('answers IDEMPOTENCY_CONFLICT for the same key with another body', async () => {
      await send({ feedback_text: 'First version of this feedback.' }).set('Idempotency-Key', 'fb-retry-2').expect(201);
      const res = await send({ feedback_text: 'Second, different feedback.' }).set('Idempotency-Key', 'fb-retry-2').expect(409);
      expect(res.body).toMatchObject({ data: null, error: { code: 'IDEMPOTENCY_CONFLICT', param: 'Idempotency-Key' } });
    });
  });

  describe('authentication', () => {
    it('answers MISSING_AUTH without a key', async () => {
      const res = await t.api.post('/v1/feedback').send({ feedback_text: 'Hello there, nice app.' }).expect(401);
      expect(res.body).toMatchObject({ data: null, error: { code: 'MISSING_AUTH' } });
    });

    it('answers INVALID_API_KEY for an unknown key', async () => {
      const res = await send({ feedback_text: 'Hello there, nice app.' }, `svc_pub_live_${'x'.repeat(32)}`).expect(401);
      expect(res.body).toMatchObject({ data: null, error: { code: 'INVALID_API_KEY' } });
    });
  });

  describe('validation', () => {
    const ok = { feedback_text: 'A perfectly fine piece of feedback.' };
    const tooLongEmail = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(59)}.io`;
    it.each([
      ['feedback_text missing', { user_id: 'u1' }, 'feedback_text'],
      ['feedback_text too short', { feedback_text: '123456789' }, 'feedback_text'],
      ['feedback_text short once trimmed', { feedback_text: '    short     ' }, 'feedback_text'],
      ['feedback_text only whitespace', { feedback_text: ' '.repeat(50) }, 'feedback_text'],
      ['feedback_text too long', { feedback_text: 'x'.repeat(2001) }, 'feedback_text'],
      ['feedback_text too long in code points', { feedback_text: '🎉'.repeat(2001) }, 'feedback_text'],
      ['feedback_text not a string', { feedback_text: 1234567890123 }, 'feedback_text'],
      ['feedback_text with a NUL character', { feedback_text: 'Broken text \u0000 here' }, 'feedback_text'],
      ['user_id empty', { ...ok, user_id: '' }, 'user_id'],
      ['user_id with a NUL character', { ...ok, user_id: 'user\u0000' }, 'user_id'],
      ['user_id too long', { ...ok, user_id: 'u'.repeat(257) }, 'user_id'],
      ['user_id not a string', { ...ok, user_id: 42 }, 'user_id'],
      ['email invalid', { ...ok, email: 'not-an-email' }, 'email'],
      ['email too long', { ...ok, email: tooLongEmail }, 'email'],
      ['page_url not a URL', { ...ok, page_url: 'not a url' }, 'page_url'],
      ['page_url relative', { ...ok, page_url: '/settings' }, 'page_url'],
      ['page_url javascript:', { ...ok, page_url: 'javascript:alert(1)' }, 'page_url'],
      ['page_url ftp:', { ...ok, page_url: 'ftp://example.com/file' }, 'page_url'],
      ['page_url too long', { ...ok, page_url: `https://example.com/${'p'.repeat(2029)}` }, 'page_url'],
      ['category_hint unknown', { ...ok, category_hint: 'complaint' }, 'category_hint'],
      ['category_hint other', { ...ok, category_hint: 'other' }, 'category_hint'],
      ['rating 0', { ...ok, rating: 0 }, 'rating'],
      ['rating 6', { ...ok, rating: 6 }, 'rating'],
      ['rating 2.5', { ...ok, rating: 2.5 }, 'rating'],
      ['rating as a string', { ...ok, rating: '5' }, 'rating'],
      ['changelog_entry_id not a string', { ...ok, changelog_entry_id: 42 }, 'changelog_entry_id'],
      ['an unknown field', { ...ok, surprise: true }, 'surprise'],
      ['a client-chosen classification', { ...ok, classification: 'praise' }, 'classification'],
    ])('refuses %s', async (_name, body, param) => {
      const res = await send(body).expect(400);
      expect(res.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param } });
    });

    it('checks the page_url boundary exactly at 2048 + 1', () => {
      expect(`https://example.com/${'p'.repeat(2029)}`).toHaveLength(2049);
      expect(tooLongEmail).toHaveLength(255);
    });

    it('stores nothing for a refused request', async () => {
      await send({ feedback_text: 'short' }).expect(400);
      expect(await t.db.manager.countBy(FeedbackEntity, { projectId: seeded.project.id })).toBe(0);
    });
  });
});
