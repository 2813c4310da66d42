import { ContactEntity } from '../../src/contacts/entities/contact.entity';
import { newId } from '../../src/common/ids/ids';
import { FeedbackEntity } from '../../src/feedback/entities/feedback.entity';
import { seedEntry } from '../support/changelog-seed';
import { flushEngagement } from '../support/engagement';
import { userHashOf } from '../support/notification-seed';
import { SeededProject, TestApp } from '../support/test-app';

describe('Changelog stats (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start({ env: { BROWSER_RATE_LIMIT: '100000' } });
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.reset());

  async function withSecret(plan: 'free' | 'indie' | 'builder'): Promise<SeededProject & { hash: (userId: string) => string }> {
    const seeded = await t.seedProject({ plan });
    const res = await t.api.as(seeded.secretKey).post('/v1/notifications/signing-secret').expect(201);
    const secret = res.body.data.signing_secret as string;
    return { ...seeded, hash: (userId) => userHashOf(userId, secret) };
  }

  /** Widget and page traffic on one entry: 3 widget views (2 signed-in, 1 anonymous first read), 1 page view, 2 clicks, 2 reactions, 1 feedback. */
  async function traffic(seeded: SeededProject & { hash: (userId: string) => string }, entryId: string): Promise<void> {
    const widget = t.api.as(seeded.publishableKey);
    for (const userId of ['ana', 'ben']) {
      await widget
        .post('/v1/changelog/widget/seen')
        .send({ entry_ids: [entryId], user_id: userId, user_hash: seeded.hash(userId) })
        .expect(200);
    }
    await widget
      .post('/v1/changelog/widget/seen')
      .send({ entry_ids: [entryId], first_time_ids: [entryId] })
      .expect(200);
    await t.api
      .post(`/public/changelog/${seeded.project.slug}/seen`)
      .send({ entry_ids: [entryId] })
      .expect(200);
    await widget.post(`/v1/changelog/widget/entries/${entryId}/click`).expect(200);
    await t.api.post(`/public/changelog/${seeded.project.slug}/entries/${entryId}/click`).expect(200);
    await widget
      .post(`/v1/changelog/widget/entries/${entryId}/reactions`)
      .send({ reaction: 'like', client_id: 'browser-000001' })
      .expect(200);
    await widget
      .post(`/v1/changelog/widget/entries/${entryId}/reactions`)
      .send({ reaction: 'celebrate', client_id: 'browser-000002' })
      .expect(200);
    await t.db.manager.getRepository(FeedbackEntity).query(
      `INSERT INTO feedback (id, project_id, feedback_text, classification, confidence, summary, changelog_entry_id, created_at)
       SELECT $1, $2, 'Love the new export', 'praise', 0.9, 'Love the new export', $3, now()`,
      [newId('fb'), seeded.project.id, entryId],
    );
    await flushEngagement(t);
  }

  it('answers every number on Indie', async () => {
    const seeded = await withSecret('indie');
    const entry = await seedEntry(t, seeded.project.id, { title: 'Export', ctaLabel: 'Try', ctaUrl: '/export' });
    await traffic(seeded, entry.id);
    const res = await t.api.as(seeded.secretKey).get(`/v1/changelog/entries/${entry.id}/stats`).expect(200);
    expect(res.body).toEqual({
      data: {
        entry_id: entry.id,
        title: 'Export',
        status: 'published',
        published_at: entry.publishedAt!.toISOString(),
        views: 4,
        reactions: { like: 1, celebrate: 1 },
        readers: { signed_in: 2, anonymous: 1 },
        cta_clicks: 2,
        feedback: 1,
      },
      error: null,
    });
  });

  it('nulls the Indie numbers on Free and names them in meta.locked', async () => {
    const seeded = await withSecret('free');
    const entry = await seedEntry(t, seeded.project.id);
    await traffic(seeded, entry.id);
    const res = await t.api.as(seeded.secretKey).get(`/v1/changelog/entries/${entry.id}/stats`).expect(200);
    expect(res.body.data).toMatchObject({
      views: 4,
      reactions: { like: 1, celebrate: 1 },
      readers: null,
      cta_clicks: null,
      feedback: null,
    });
    expect(res.body.meta).toEqual({ locked: ['readers', 'cta_clicks', 'feedback'] });
    const latest = await t.api.as(seeded.secretKey).get('/v1/changelog/stats').expect(200);
    expect(latest.body.meta).toEqual({ locked: ['readers', 'cta_clicks', 'feedback'] });
  });

  it('lists the latest published entries, newest first, up to limit', async () => {
    const seeded = await withSecret('builder');
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const older = await seedEntry(t, seeded.project.id, { publishedAt: at(30) });
    const newer = await seedEntry(t, seeded.project.id, { publishedAt: at(10) });
    await seedEntry(t, seeded.project.id, { publishedAt: at(50) });
    await seedEntry(t, seeded.project.id, { status: 'draft' });
    const res = await t.api.as(seeded.secretKey).get('/v1/changelog/stats').query({ limit: 2 }).expect(200);
    expect(res.body.data.map((row: { entry_id: string }) => row.entry_id)).toEqual([newer.id, older.id]);
    expect(res.body.data[0]).toMatchObject({
      views: 0,
      reactions: {},
      readers: { signed_in: 0, anonymous: 0 },
      cta_clicks: 0,
      feedback: 0,
    });
    expect(res.body.meta).toBeUndefined();
    const bad = await t.api.as(seeded.secretKey).get('/v1/changelog/stats').query({ limit: 51 }).expect(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'limit' });
  });

  it('answers NOT_FOUND for another project, and the secret key only', async () => {
    const seeded = await withSecret('indie');
    const other = await t.seedProject();
    const foreign = await seedEntry(t, other.project.id);
    const res = await t.api.as(seeded.secretKey).get(`/v1/changelog/entries/${foreign.id}/stats`).expect(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', param: 'id' });
    const publishable = await t.api.as(seeded.publishableKey).get('/v1/changelog/stats').expect(403);
    expect(publishable.body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
  });

  describe('GET /v1/changelog/entries/{id}/after-reading', () => {
    it('compares readers with people known before publication, over 14 days, Builder only', async () => {
      const seeded = await withSecret('builder');
      const published = new Date('2026-11-10T12:00:00Z');
      const entry = await seedEntry(t, seeded.project.id, { publishedAt: published });
      const contacts = t.db.manager.getRepository(ContactEntity);
      for (const [userId, createdAt] of [
        ['known-reader', '2026-11-01T00:00:00Z'],
        ['known-not-reader', '2026-11-02T00:00:00Z'],
        ['met-later', '2026-11-12T00:00:00Z'],
      ]) {
        const at = new Date(createdAt);
        await contacts.insert({
          id: newId('ct'),
          projectId: seeded.project.id,
          email: null,
          userId,
          stage: 'user',
          consents: {},
          details: {},
          paying: false,
          createdAt: at,
          updatedAt: at,
        });
      }
      await t.db.manager.query(
        `INSERT INTO changelog_readers (entry_id, user_id, project_id, first_seen_at) VALUES
           ($1, 'known-reader', $2, '2026-11-11T00:00:00Z'), ($1, 'met-later', $2, '2026-11-13T00:00:00Z'), ($1, 'too-late', $2, '2026-11-30T00:00:00Z')`,
        [entry.id, seeded.project.id],
      );
      t.clock.freeze('2026-11-26T00:00:00Z');
      const res = await t.api.as(seeded.secretKey).get(`/v1/changelog/entries/${entry.id}/after-reading`).expect(200);
      const unknown = { paid: null, paid_rate: null, upgraded: null, upgraded_rate: null, signed_up: null };
      expect(res.body.data).toEqual({
        entry_id: entry.id,
        window: { from: '2026-11-10T12:00:00.000Z', to: '2026-11-24T12:00:00.000Z', complete: true },
        readers: { people: 2, ...unknown },
        non_readers: { people: 1, ...unknown },
        small_numbers: true,
        notes: [
          expect.objectContaining({ field: 'signed_up', code: 'not_computed' }),
          expect.objectContaining({ field: 'paid', code: 'no_processor_connection' }),
        ],
      });
    });

    it('answers PLAN_UPGRADE_REQUIRED below Builder and ENTRY_NOT_PUBLISHED for a draft', async () => {
      const indie = await withSecret('indie');
      const entry = await seedEntry(t, indie.project.id);
      const gated = await t.api.as(indie.secretKey).get(`/v1/changelog/entries/${entry.id}/after-reading`).expect(403);
      expect(gated.body.error.code).toBe('PLAN_UPGRADE_REQUIRED');
      const builder = await withSecret('builder');
      const draft = await seedEntry(t, builder.project.id, { status: 'draft' });
      const res = await t.api.as(builder.secretKey).get(`/v1/changelog/entries/${draft.id}/after-reading`).expect(409);
      expect(res.body.error).toMatchObject({ code: 'ENTRY_NOT_PUBLISHED', param: 'id' });
    });
  });
});
