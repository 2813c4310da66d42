import { PLATFORM_LIMITS } from '../../src/projects/plans';
import { seedEntry } from '../support/changelog-seed';
import { flushEngagement } from '../support/engagement';
import { userHashOf } from '../support/notification-seed';
import { SeededProject, TestApp } from '../support/test-app';

const CAPS = PLATFORM_LIMITS.engagementPerAddressPerEntryPerHour;
const HOUR_MS = 3_600_000;
const ONE = '203.0.113.10';
const OTHER = '198.51.100.20';

// Counts one address adds to one entry, whatever client_id it sends (the widget's and the hosted page's calls).
describe('Engagement caps per address (e2e)', () => {
  let t: TestApp;
  let seeded: SeededProject & { hash: (userId: string) => string };
  let slug: string;

  beforeAll(async () => {
    // One proxy in front: X-Forwarded-For names the address; the browser limit stays out of the way.
    t = await TestApp.start({ env: { TRUST_PROXY: '1', BROWSER_RATE_LIMIT: '100000' } });
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.reset());
  beforeEach(async () => {
    const project = await t.seedProject({ plan: 'indie' });
    const res = await t.api.as(project.secretKey).post('/v1/notifications/signing-secret').expect(201);
    const secret = res.body.data.signing_secret as string;
    seeded = { ...project, hash: (userId) => userHashOf(userId, secret) };
    slug = project.project.slug;
  });

  const widget = (address: string) => ({
    seen: (body: object) => t.api.as(seeded.publishableKey).post('/v1/changelog/widget/seen').set('X-Forwarded-For', address).send(body),
    click: (entryId: string, body: object = {}) =>
      t.api.as(seeded.publishableKey).post(`/v1/changelog/widget/entries/${entryId}/click`).set('X-Forwarded-For', address).send(body),
    react: (entryId: string, body: object) =>
      t.api.as(seeded.publishableKey).post(`/v1/changelog/widget/entries/${entryId}/reactions`).set('X-Forwarded-For', address).send(body),
  });
  const page = (address: string) => ({
    seen: (entryIds: string[]) =>
      t.api.post(`/public/changelog/${slug}/seen`).set('X-Forwarded-For', address).send({ entry_ids: entryIds }),
    click: (entryId: string) => t.api.post(`/public/changelog/${slug}/entries/${entryId}/click`).set('X-Forwarded-For', address),
  });
  const clientId = (i: number) => `browser-${String(i).padStart(6, '0')}`;

  async function stats(
    entryId: string,
  ): Promise<{ views: number; readers: { signed_in: number; anonymous: number }; cta_clicks: number; reactions: Record<string, number> }> {
    await flushEngagement(t);
    return (await t.api.as(seeded.secretKey).get(`/v1/changelog/entries/${entryId}/stats`).expect(200)).body.data;
  }

  it('counts anonymous first reads from 50 fresh client ids of one address up to the cap, answering each as usual', async () => {
    const entry = await seedEntry(t, seeded.project.id);
    for (let i = 0; i < 50; i += 1) {
      const res = await widget(ONE)
        .seen({ entry_ids: [entry.id], first_time_ids: [entry.id], client_id: clientId(i) })
        .expect(200);
      expect(res.body).toEqual({ data: { recorded: 1 }, error: null });
    }
    expect(await stats(entry.id)).toMatchObject({ views: 50, readers: { signed_in: 0, anonymous: CAPS.anonymousReaders } });

    await widget(OTHER)
      .seen({ entry_ids: [entry.id], first_time_ids: [entry.id], client_id: clientId(99) })
      .expect(200);
    expect((await stats(entry.id)).readers.anonymous).toBe(CAPS.anonymousReaders + 1);

    // The next hour counts again.
    t.clock.advance(HOUR_MS);
    await widget(ONE)
      .seen({ entry_ids: [entry.id], first_time_ids: [entry.id], client_id: clientId(100) })
      .expect(200);
    expect((await stats(entry.id)).readers.anonymous).toBe(CAPS.anonymousReaders + 2);
  });

  it('caps views of widget and hosted page together, per entry, and counts an IPv6 /64 as one address', async () => {
    const [capped, fresh] = [await seedEntry(t, seeded.project.id), await seedEntry(t, seeded.project.id)];
    const sameSlash64 = (i: number) => `2001:db8:7:8::${(i + 1).toString(16)}`;
    for (let i = 0; i < 40; i += 1)
      await widget(sameSlash64(i))
        .seen({ entry_ids: [capped.id], client_id: clientId(i) })
        .expect(200);
    for (let i = 40; i < 80; i += 1) {
      const res = await page(sameSlash64(i)).seen([capped.id]).expect(200);
      expect(res.body.data).toEqual({ recorded: 1 });
    }
    // The other entry has a cap of its own.
    await page(sameSlash64(0)).seen([capped.id, fresh.id]).expect(200);
    expect((await stats(capped.id)).views).toBe(CAPS.views);
    expect((await stats(fresh.id)).views).toBe(1);

    await page('2001:db8:7:9::1').seen([capped.id]).expect(200);
    expect((await stats(capped.id)).views).toBe(CAPS.views + 1);
  });

  it('caps button clicks of widget and hosted page together', async () => {
    const entry = await seedEntry(t, seeded.project.id, { ctaLabel: 'Try', ctaUrl: '/try' });
    for (let i = 0; i < 15; i += 1) {
      expect(
        (
          await widget(ONE)
            .click(entry.id, { client_id: clientId(i) })
            .expect(200)
        ).body.data,
      ).toEqual({ recorded: 1 });
      expect((await page(ONE).click(entry.id).expect(200)).body.data).toEqual({ recorded: 1 });
    }
    expect((await stats(entry.id)).cta_clicks).toBe(CAPS.ctaClicks);
    await widget(OTHER).click(entry.id).expect(200);
    expect((await stats(entry.id)).cta_clicks).toBe(CAPS.ctaClicks + 1);
  });

  it('caps reactions of fresh client ids, answering the counts as they are; a reactor may still change its mind', async () => {
    const entry = await seedEntry(t, seeded.project.id);
    const answers: { reactions: Record<string, number>; my_reaction: string | null }[] = [];
    for (let i = 0; i < 50; i += 1) {
      answers.push(
        (
          await widget(ONE)
            .react(entry.id, { reaction: 'like', client_id: clientId(i) })
            .expect(200)
        ).body.data,
      );
    }
    expect(answers[CAPS.anonymousReactions - 1]).toMatchObject({ reactions: { like: CAPS.anonymousReactions }, my_reaction: 'like' });
    expect(answers[49]).toEqual({ entry_id: entry.id, reactions: { like: CAPS.anonymousReactions }, my_reaction: null });

    // Past the cap an earlier reactor changes its reaction: the total stays.
    const changed = await widget(ONE)
      .react(entry.id, { reaction: 'celebrate', client_id: clientId(0) })
      .expect(200);
    expect(changed.body.data).toEqual({
      entry_id: entry.id,
      reactions: { like: CAPS.anonymousReactions - 1, celebrate: 1 },
      my_reaction: 'celebrate',
    });

    const other = await widget(OTHER)
      .react(entry.id, { reaction: 'like', client_id: clientId(99) })
      .expect(200);
    expect(other.body.data.reactions).toEqual({ like: CAPS.anonymousReactions, celebrate: 1 });
  });

  it('does not cap signed-in readers or their reactions: a verified user id is a person', async () => {
    const entry = await seedEntry(t, seeded.project.id);
    for (let i = 0; i < 30; i += 1) {
      const userId = `user-${i}`;
      const as = { user_id: userId, user_hash: seeded.hash(userId) };
      await widget(ONE)
        .seen({ entry_ids: [entry.id], ...as })
        .expect(200);
      expect(
        (
          await widget(ONE)
            .react(entry.id, { reaction: 'like', ...as })
            .expect(200)
        ).body.data.my_reaction,
      ).toBe('like');
    }
    expect(await stats(entry.id)).toMatchObject({ views: 30, readers: { signed_in: 30, anonymous: 0 }, reactions: { like: 30 } });
  });
});
