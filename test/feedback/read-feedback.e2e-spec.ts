import { monotonicFactory } from 'ulid';
import { FeedbackEntity } from '../../src/feedback/entities/feedback.entity';
import { FeedbackService } from '../../src/feedback/feedback.service';
import { SeededProject, TestApp } from '../support/test-app';

const ENTRY_A = 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1A';
const ENTRY_B = 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1B';
// Rows written straight to the table in quick succession still need strictly increasing ids.
const nextUlid = monotonicFactory();

describe('reading feedback', () => {
  let t: TestApp;
  let seeded: SeededProject;
  let other: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());
  // Projects of their own for every test, so each runs alone or in any order.
  beforeEach(async () => {
    seeded = await t.seedProject({ plan: 'indie' });
    other = await t.seedProject();
  });

  const create = async (body: Record<string, unknown>, project = seeded): Promise<Record<string, unknown>> =>
    (await t.api.as(project.secretKey).post('/v1/feedback').send(body).expect(201)).body.data;
  const list = (query: string, key = seeded.secretKey) => t.api.as(key).get(`/v1/feedback${query}`);

  /** Linked rows are written directly, so these tests need no published entries. */
  const insertLinked = async (projectId: string, changelogEntryId: string | null, userId: string | null = null): Promise<string> => {
    const row = Object.assign(new FeedbackEntity(), {
      id: `fb_${nextUlid()}`,
      projectId,
      feedbackText: 'Feedback attached to a changelog entry.',
      classification: 'praise',
      confidence: 0.9,
      summary: 'Feedback attached to a changelog entry.',
      userId,
      email: null,
      pageUrl: null,
      rating: 5,
      categoryHint: null,
      changelogEntryId,
      createdAt: t.clock.now(),
    });
    await t.db.manager.insert(FeedbackEntity, row);
    return row.id;
  };

  describe('GET /v1/feedback/{feedback_id}', () => {
    it("returns the full record including the submitter's email", async () => {
      const created = await create({
        feedback_text: 'Please add a dark mode to the editor.',
        email: 'Grace@Example.com',
        user_id: 'user_grace',
        page_url: 'https://app.example.com/editor',
        category_hint: 'feature_request',
        rating: 4,
      });
      const res = await t.api.as(seeded.secretKey).get(`/v1/feedback/${created.feedback_id}`).expect(200);
      expect(res.body).toEqual({ data: { ...created, email: 'grace@example.com' }, error: null });
    });

    it('answers email null when none was given', async () => {
      const created = await create({ feedback_text: 'Please add a dark mode to the editor.' });
      const res = await t.api.as(seeded.secretKey).get(`/v1/feedback/${created.feedback_id}`).expect(200);
      expect(res.body.data).toMatchObject({ email: null, has_email: false });
    });

    it("answers NOT_FOUND for another project's feedback", async () => {
      const foreign = await create({ feedback_text: 'Feedback of another project.' }, other);
      const res = await t.api.as(seeded.secretKey).get(`/v1/feedback/${foreign.feedback_id}`).expect(404);
      expect(res.body).toMatchObject({ data: null, error: { code: 'NOT_FOUND', param: 'feedback_id' } });
    });

    it.each([
      ['an unknown id', 'fb_01JD3Z4Q9X8V7T6S5R4Q3P2N1M'],
      ['a malformed id', 'not-an-id'],
      ['an id of another kind', 'ct_01JD3Z4Q9X8V7T6S5R4Q3P2N1M'],
    ])('answers NOT_FOUND for %s', async (_name, id) => {
      const res = await t.api.as(seeded.secretKey).get(`/v1/feedback/${id}`).expect(404);
      expect(res.body).toMatchObject({ data: null, error: { code: 'NOT_FOUND' } });
    });

    it('refuses the publishable key with KEY_INSUFFICIENT_PERMISSIONS', async () => {
      const created = await create({ feedback_text: 'Please add a dark mode to the editor.', email: 'x@example.com' });
      const res = await t.api.as(seeded.publishableKey).get(`/v1/feedback/${created.feedback_id}`).expect(403);
      expect(res.body).toMatchObject({ data: null, error: { code: 'KEY_INSUFFICIENT_PERMISSIONS' } });
      expect(JSON.stringify(res.body)).not.toContain('x@example.com');
    });

    it('answers MISSING_AUTH without a key', async () => {
      const res = await t.api.get('/v1/feedback/fb_01JD3Z4Q9X8V7T6S5R4Q3P2N1M').expect(401);
      expect(res.body).toMatchObject({ data: null, error: { code: 'MISSING_AUTH' } });
    });
  });

  describe('GET /v1/feedback', () => {
    const ids = (res: { body: { data: { feedback_id: string }[] } }) => res.body.data.map((item) => item.feedback_id);

    it('lists newest first without emails, in the paged envelope', async () => {
      const fresh = await t.seedProject();
      const first = await create({ feedback_text: 'First: the app crashes when I upload a photo.', email: 'one@example.com' }, fresh);
      const second = await create({ feedback_text: 'Second: I was charged twice for my plan.', user_id: 'user_a' }, fresh);
      const res = await list('', fresh.secretKey).expect(200);
      expect(res.body.meta).toEqual({ next_cursor: null, has_more: false });
      expect(ids(res)).toEqual([second.feedback_id, first.feedback_id]);
      expect(res.body.data[1]).toEqual(first);
      expect(res.body.data[1]).not.toHaveProperty('email');
      expect(JSON.stringify(res.body)).not.toContain('one@example.com');
    });

    it('filters by classification', async () => {
      const fresh = await t.seedProject();
      const bug = await create({ feedback_text: 'The app crashes every time I upload a photo.' }, fresh);
      const billing = await create({ feedback_text: 'I was charged twice for my plan this month.' }, fresh);
      expect([bug.classification, billing.classification]).toEqual(['bug', 'billing']);
      expect((await list('?classification=billing', fresh.secretKey).expect(200)).body.data).toEqual([billing]);
      expect((await list('?classification=bug', fresh.secretKey).expect(200)).body.data).toEqual([bug]);
      expect((await list('?classification=spam', fresh.secretKey).expect(200)).body.data).toEqual([]);
    });

    it('filters by user_id', async () => {
      const fresh = await t.seedProject();
      const mine = await create({ feedback_text: 'The sidebar overlaps the chart on mobile.', user_id: 'user_filter' }, fresh);
      await create({ feedback_text: 'The sidebar overlaps the chart on mobile.', user_id: 'user_other' }, fresh);
      await create({ feedback_text: 'The sidebar overlaps the chart on mobile.' }, fresh);
      const res = await list('?user_id=user_filter', fresh.secretKey).expect(200);
      expect(res.body.data).toEqual([mine]);
    });

    it('filters by changelog_entry_id', async () => {
      const fresh = await t.seedProject();
      const a1 = await insertLinked(fresh.project.id, ENTRY_A);
      const b1 = await insertLinked(fresh.project.id, ENTRY_B);
      const a2 = await insertLinked(fresh.project.id, ENTRY_A);
      await insertLinked(fresh.project.id, null);
      await insertLinked(other.project.id, ENTRY_A);
      const res = await list(`?changelog_entry_id=${ENTRY_A}`, fresh.secretKey).expect(200);
      expect(ids(res)).toEqual([a2, a1]);
      for (const item of res.body.data) expect(item.changelog_entry_id).toBe(ENTRY_A);
      expect(ids(await list(`?changelog_entry_id=${ENTRY_B}`, fresh.secretKey).expect(200))).toEqual([b1]);
    });

    it('filters by since: created at or after', async () => {
      const fresh = await t.seedProject();
      await create({ feedback_text: 'Old feedback from before the launch.' }, fresh);
      t.clock.advance(60 * 60_000);
      try {
        const recent = await create({ feedback_text: 'New feedback after the launch.' }, fresh);
        const createdAt = new Date(recent.created_at as string).getTime();
        const exact = await list(`?since=${encodeURIComponent(recent.created_at as string)}`, fresh.secretKey).expect(200);
        expect(exact.body.data).toEqual([recent]);
        const withOffset = new Date(createdAt - 30 * 60_000).toISOString().replace('Z', '+00:00');
        expect((await list(`?since=${encodeURIComponent(withOffset)}`, fresh.secretKey).expect(200)).body.data).toEqual([recent]);
        const later = new Date(createdAt + 1).toISOString();
        expect((await list(`?since=${later}`, fresh.secretKey).expect(200)).body.data).toEqual([]);
        const earlier = new Date(createdAt - 2 * 60 * 60_000).toISOString();
        expect((await list(`?since=${earlier}`, fresh.secretKey).expect(200)).body.data).toHaveLength(2);
      } finally {
        t.clock.reset();
      }
    });

    it('combines filters with AND', async () => {
      const fresh = await t.seedProject();
      const match = await insertLinked(fresh.project.id, ENTRY_B, 'user_combo');
      await insertLinked(fresh.project.id, ENTRY_B, 'user_else');
      await insertLinked(fresh.project.id, ENTRY_A, 'user_combo');
      const res = await list(`?changelog_entry_id=${ENTRY_B}&user_id=user_combo&classification=praise`, fresh.secretKey).expect(200);
      expect(ids(res)).toEqual([match]);
      expect((await list(`?changelog_entry_id=${ENTRY_B}&classification=bug`, fresh.secretKey).expect(200)).body.data).toEqual([]);
    });

    it('walks every page with the cursor, newest first, without duplicates', async () => {
      const paged = await t.seedProject();
      const created: string[] = [];
      for (let index = 0; index < 7; index += 1) {
        created.push((await create({ feedback_text: `Feedback number ${index} about the editor.` }, paged)).feedback_id as string);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await list(query, paged.secretKey).expect(200);
        pages += 1;
        expect(res.body.data.length).toBeLessThanOrEqual(3);
        expect(res.body.meta.has_more).toBe(res.body.meta.next_cursor !== null);
        seen.push(...ids(res));
        cursor = res.body.meta.next_cursor;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual([...created].reverse());
      expect(new Set(seen).size).toBe(7);
    });

    it('defaults to 20 items per page', async () => {
      const many = await t.seedProject();
      for (let index = 0; index < 21; index += 1) await insertLinked(many.project.id, null);
      const res = await list('', many.secretKey).expect(200);
      expect(res.body.data).toHaveLength(20);
      expect(res.body.meta.has_more).toBe(true);
    });

    it("never lists another project's feedback", async () => {
      const fresh = await t.seedProject();
      const foreign = await create({ feedback_text: 'Feedback of another project, not yours.', user_id: 'user_shared' }, other);
      const mine = await create({ feedback_text: 'Feedback of this project, yours.', user_id: 'user_shared' }, fresh);
      expect(ids(await list('?limit=100', fresh.secretKey).expect(200))).toEqual([mine.feedback_id]);
      const res = await list('?user_id=user_shared&limit=100', fresh.secretKey).expect(200);
      expect(ids(res)).toEqual([mine.feedback_id]);
      expect(ids(res)).not.toContain(foreign.feedback_id);
    });

    it.each([
      ['limit 0', '?limit=0', 'limit'],
      ['limit 101', '?limit=101', 'limit'],
      ['an unknown classification', '?classification=angry', 'classification'],
      ['an empty user_id', '?user_id=', 'user_id'],
      ['a user_id with a NUL character', '?user_id=a%00b', 'user_id'],
      ['a changelog_entry_id with a NUL character', '?changelog_entry_id=ce%00', 'changelog_entry_id'],
      ['a changelog_entry_id over 64 characters', `?changelog_entry_id=${'c'.repeat(65)}`, 'changelog_entry_id'],
      ['a since that is not a date-time', '?since=yesterday', 'since'],
      ['a since without a time zone', '?since=2026-11-20T10:00:00', 'since'],
      ['a forged cursor', '?cursor=bm90LWEtY3Vyc29y', 'cursor'],
      ['a cursor pointing at another kind of id', `?cursor=${Buffer.from(JSON.stringify({ id: 'x' })).toString('base64url')}`, 'cursor'],
      ['an unknown filter', '?stage=lead', 'stage'],
    ])('refuses %s', async (_name, query, param) => {
      const res = await list(query).expect(400);
      expect(res.body).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param } });
    });

    it('refuses the publishable key with KEY_INSUFFICIENT_PERMISSIONS', async () => {
      const res = await list('', seeded.publishableKey).expect(403);
      expect(res.body).toMatchObject({ data: null, error: { code: 'KEY_INSUFFICIENT_PERMISSIONS' } });
    });

    it('answers MISSING_AUTH without a key', async () => {
      const res = await t.api.get('/v1/feedback').expect(401);
      expect(res.body).toMatchObject({ data: null, error: { code: 'MISSING_AUTH' } });
    });
  });

  describe('FeedbackService.countForEntries', () => {
    it('counts feedback per entry of one project in one query, with 0 for entries without any', async () => {
      const counted = await t.seedProject({ plan: 'indie' });
      await insertLinked(counted.project.id, ENTRY_A);
      await insertLinked(counted.project.id, ENTRY_A);
      await insertLinked(counted.project.id, ENTRY_A);
      await insertLinked(counted.project.id, ENTRY_B);
      await insertLinked(counted.project.id, null);
      await insertLinked(other.project.id, ENTRY_B);
      const entryC = 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1C';
      const counts = await t.get(FeedbackService).countForEntries(counted.project.id, [ENTRY_A, ENTRY_B, entryC, ENTRY_A]);
      expect(counts).toEqual(
        new Map([
          [ENTRY_A, 3],
          [ENTRY_B, 1],
          [entryC, 0],
        ]),
      );
    });

    it('runs inside a caller transaction and answers an empty map for no ids', async () => {
      const service = t.get(FeedbackService);
      const counts = await t.db.transaction((em) => service.countForEntries(seeded.project.id, [ENTRY_A], em));
      expect(counts.get(ENTRY_A)).toEqual(expect.any(Number));
      expect(await service.countForEntries(seeded.project.id, [])).toEqual(new Map());
    });
  });
});
