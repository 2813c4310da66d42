import { ChangelogEntryLabelEntity } from '../../src/changelog/entities/changelog-entry-label.entity';
import { ChangelogSubscriberLabelEntity } from '../../src/changelog/entities/changelog-subscriber-label.entity';
import { ChangelogSubscriberEntity } from '../../src/changelog/entities/changelog-subscriber.entity';
import { newId } from '../../src/common/ids/ids';
import { SeededProject, TestApp } from '../support/test-app';

const LABEL_ID = /^lbl_[0-9A-HJKMNP-TV-Z]{26}$/;

describe('changelog labels and settings', () => {
  let t: TestApp;
  let seeded: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    seeded = await t.seedProject({ plan: 'indie' });
  });

  const api = (key = seeded.secretKey) => t.api.as(key);
  const createLabel = (body: Record<string, unknown>, key = seeded.secretKey) => api(key).post('/v1/changelog/labels').send(body);

  describe('POST /v1/changelog/labels', () => {
    it('accepts an Idempotency-Key: a replay answers the first label, another body is a conflict', async () => {
      const first = await createLabel({ name: 'Mobile' }).set('Idempotency-Key', 'label-once').expect(201);
      const again = await createLabel({ name: 'Mobile' }).set('Idempotency-Key', 'label-once').expect(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      const other = await createLabel({ name: 'Web' }).set('Idempotency-Key', 'label-once').expect(409);
      expect(other.body.error).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', param: 'Idempotency-Key' });
      expect((await api().get('/v1/changelog/labels').expect(200)).body.data.map((label: { slug: string }) => label.slug)).toEqual([
        'mobile',
      ]);
    });

    it('creates a label with a slug made from the name, numbered when taken', async () => {
      const first = await createLabel({ name: '  New & Improved ' }).expect(201);
      expect(first.body.data).toEqual({
        id: expect.stringMatching(LABEL_ID),
        name: 'New & Improved',
        slug: 'new-improved',
        colour: 'gray',
        created_at: expect.any(String),
      });
      expect((await createLabel({ name: 'New improved', colour: 'teal' }).expect(201)).body.data).toMatchObject({
        slug: 'new-improved-2',
        colour: 'teal',
      });
      expect((await createLabel({ name: 'NEW improved!' }).expect(201)).body.data.slug).toBe('new-improved-3');
    });

    it('answers LABEL_SLUG_TAKEN for a taken slug that is sent', async () => {
      await createLabel({ name: 'API', slug: 'api' }).expect(201);
      const res = await createLabel({ name: 'Other', slug: 'api' }).expect(409);
      expect(res.body.error).toMatchObject({ code: 'LABEL_SLUG_TAKEN', param: 'slug' });
      // Another project may use the same slug.
      const other = await t.seedProject();
      await createLabel({ name: 'API', slug: 'api' }, other.secretKey).expect(201);
    });

    it.each([
      ['no name', {}, 'name'],
      ['a blank name', { name: '  ' }, 'name'],
      ['a name of 51 characters', { name: 'x'.repeat(51) }, 'name'],
      ['an uppercase slug', { name: 'A', slug: 'API' }, 'slug'],
      ['a slug of 41 characters', { name: 'A', slug: 'a'.repeat(41) }, 'slug'],
      ['an unknown colour', { name: 'A', colour: 'black' }, 'colour'],
    ])('refuses %s', async (_what, body, param) => {
      const res = await createLabel(body).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param });
    });

    it('caps labels per plan (Free 5)', async () => {
      const free = await t.seedProject({ plan: 'free' });
      for (let i = 0; i < 5; i += 1) await createLabel({ name: `L${i}` }, free.secretKey).expect(201);
      const res = await createLabel({ name: 'One more' }, free.secretKey).expect(403);
      expect(res.body.error.code).toBe('PLAN_LIMIT_REACHED');
    });

    it('refuses a publishable key', async () => {
      await createLabel({ name: 'A' }, seeded.publishableKey).expect(403);
      await api(seeded.publishableKey).get('/v1/changelog/labels').expect(403);
    });
  });

  describe('GET, PATCH and DELETE /v1/changelog/labels', () => {
    it('lists by name, renames, recolours and re-slugs', async () => {
      const zeta = (await createLabel({ name: 'Zeta' }).expect(201)).body.data;
      const alpha = (await createLabel({ name: 'Alpha', colour: 'red' }).expect(201)).body.data;
      expect((await api().get('/v1/changelog/labels').expect(200)).body.data).toEqual([alpha, zeta]);
      const res = await api().patch(`/v1/changelog/labels/${zeta.id}`).send({ name: 'Beta', slug: 'beta', colour: 'blue' }).expect(200);
      expect(res.body.data).toEqual({ ...zeta, name: 'Beta', slug: 'beta', colour: 'blue' });
      const taken = await api().patch(`/v1/changelog/labels/${zeta.id}`).send({ slug: alpha.slug }).expect(409);
      expect(taken.body.error.code).toBe('LABEL_SLUG_TAKEN');
      expect((await api().patch(`/v1/changelog/labels/${zeta.id}`).send({ name: null }).expect(400)).body.error.param).toBe('name');
      const other = await t.seedProject();
      await api(other.secretKey).patch(`/v1/changelog/labels/${zeta.id}`).send({ name: 'X' }).expect(404);
      await api(other.secretKey).delete(`/v1/changelog/labels/${zeta.id}`).expect(404);
    });

    it('removes a deleted label from every entry and subscriber', async () => {
      const label = (await createLabel({ name: 'Export' }).expect(201)).body.data;
      const entry = await api()
        .post('/v1/changelog/entries')
        .send({ title: 'T', body_markdown: 'B', category: 'fix', labels: ['export'] })
        .expect(201);
      const subscriberId = newId('sub');
      await t.db.manager.insert(ChangelogSubscriberEntity, {
        id: subscriberId,
        projectId: seeded.project.id,
        email: 'ada@example.com',
        confirmed: true,
        createdAt: new Date(),
      } as ChangelogSubscriberEntity);
      await t.db.manager.insert(ChangelogSubscriberLabelEntity, { subscriberId, labelId: label.id } as ChangelogSubscriberLabelEntity);
      const res = await api().delete(`/v1/changelog/labels/${label.id}`).expect(200);
      expect(res.body.data).toEqual({ id: label.id, deleted: true });
      expect(await t.db.manager.countBy(ChangelogEntryLabelEntity, { labelId: label.id })).toBe(0);
      expect(await t.db.manager.countBy(ChangelogSubscriberLabelEntity, { labelId: label.id })).toBe(0);
      const after = await api().get(`/v1/changelog/entries/${entry.body.data.id}`).expect(200);
      expect(after.body.meta.entry_options.labels).toEqual([]);
      expect((await api().get('/v1/changelog/labels').expect(200)).body.data).toEqual([]);
    });
  });

  describe('GET and PATCH /v1/changelog/settings', () => {
    it('starts with the default set, stores an ordered set and turns reactions off with an empty one', async () => {
      expect((await api().get('/v1/changelog/settings').expect(200)).body.data).toEqual({ reaction_set: ['like', 'celebrate', 'dislike'] });
      const set = ['fire', 'eyes', 'like'];
      expect((await api().patch('/v1/changelog/settings').send({ reaction_set: set }).expect(200)).body.data).toEqual({
        reaction_set: set,
      });
      expect((await api().get('/v1/changelog/settings').expect(200)).body.data).toEqual({ reaction_set: set });
      await api().patch('/v1/changelog/settings').send({ reaction_set: [] }).expect(200);
      expect((await api().get('/v1/changelog/settings').expect(200)).body.data).toEqual({ reaction_set: [] });
      // Other project settings are kept.
      const [row] = await t.db.manager.query('SELECT settings FROM projects WHERE id = $1', [seeded.project.id]);
      expect(row.settings).toMatchObject({ require_user_hash: true, changelog_reaction_set: [] });
    });

    it.each([
      ['an unknown name', { reaction_set: ['like', 'wow'] }],
      ['six names', { reaction_set: ['like', 'celebrate', 'love', 'laugh', 'fire', 'eyes'] }],
      ['a repeated name', { reaction_set: ['like', 'like'] }],
      ['no list', {}],
      ['a string', { reaction_set: 'like' }],
    ])('refuses %s', async (_what, body) => {
      const res = await api().patch('/v1/changelog/settings').send(body).expect(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', param: 'reaction_set' });
    });

    it('refuses a publishable key', async () => {
      await api(seeded.publishableKey).patch('/v1/changelog/settings').send({ reaction_set: [] }).expect(403);
    });
  });
});
