import { ContactsService } from '../../src/contacts/contacts.service';
import { ContactEntity } from '../../src/contacts/entities/contact.entity';
import { SeededProject, TestApp } from '../support/test-app';

describe('Contacts', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  const upsert = (projectId: string, input: Parameters<ContactsService['upsertContact']>[2]) =>
    t.db.transaction((em) => t.get(ContactsService).upsertContact(em, projectId, input));

  describe('POST /v1/analytics/identify', () => {
    it('links a user id to an email and answers the contact', async () => {
      const project = await t.seedProject();
      const res = await t.api
        .as(project.secretKey)
        .post('/v1/analytics/identify')
        .send({ user_id: 'user_1', email: 'Ada@Example.com', details: { plan: 'pro', seats: 3, beta: true } })
        .expect(200);
      expect(res.body.data).toMatchObject({
        id: expect.stringMatching(/^ct_[0-9A-HJKMNP-TV-Z]{26}$/),
        email: 'ada@example.com',
        user_id: 'user_1',
        stage: 'user',
        details: { plan: 'pro', seats: 3, beta: true },
        consents: {},
        paying: false,
      });
    });

    it('merges an email-only contact into the user when identify links them', async () => {
      const project = await t.seedProject();
      const lead = await upsert(project.project.id, {
        email: 'merge@example.com',
        stage: 'waitlist',
        details: { source: 'hn' },
        consents: { waitlist_emails: 'granted' },
      });
      await upsert(project.project.id, { userId: 'user_merge', details: { plan: 'free' } });
      const res = await t.api
        .as(project.secretKey)
        .post('/v1/analytics/identify')
        .send({ user_id: 'user_merge', email: 'merge@example.com' })
        .expect(200);
      expect(res.body.data).toMatchObject({
        user_id: 'user_merge',
        email: 'merge@example.com',
        stage: 'user',
        details: { source: 'hn', plan: 'free' },
        consents: { waitlist_emails: { status: 'granted' } },
      });
      expect(await t.db.manager.countBy(ContactEntity, { id: lead.id })).toBe(0);
    });

    it('validates user_id, email and details with param', async () => {
      const project = await t.seedProject();
      const cases: [object, string][] = [
        [{ email: 'a@example.com' }, 'user_id'],
        [{ user_id: '', email: 'a@example.com' }, 'user_id'],
        [{ user_id: 'u'.repeat(257), email: 'a@example.com' }, 'user_id'],
        [{ user_id: 'u' }, 'email'],
        [{ user_id: 'u', email: 'not-an-email' }, 'email'],
        [{ user_id: 'u', email: `${'a'.repeat(250)}@x.io` }, 'email'],
        [{ user_id: 'u', email: 'a@example.com', details: { nested: { no: 1 } } }, 'details'],
        [{ user_id: 'u', email: 'a@example.com', extra: true }, 'extra'],
      ];
      for (const [body, param] of cases) {
        const res = await t.api.as(project.secretKey).post('/v1/analytics/identify').send(body).expect(400);
        expect({ param: res.body.error.param, code: res.body.error.code }).toEqual({ param, code: 'VALIDATION_ERROR' });
      }
    });

    it('needs a secret key', async () => {
      const project = await t.seedProject();
      expect((await t.api.post('/v1/analytics/identify').send({}).expect(401)).body.error.code).toBe('MISSING_AUTH');
      expect((await t.api.as(project.publishableKey).post('/v1/analytics/identify').send({}).expect(403)).body.error.code).toBe(
        'KEY_INSUFFICIENT_PERMISSIONS',
      );
    });
  });

  describe('upsert rules', () => {
    it('never moves a stage backwards and is case-insensitive on email', async () => {
      const project = await t.seedProject();
      await upsert(project.project.id, { email: 'stage@example.com', stage: 'invited' });
      const again = await upsert(project.project.id, { email: 'STAGE@example.com', stage: 'lead' });
      expect(again.stage).toBe('invited');
      expect(await t.db.manager.countBy(ContactEntity, { projectId: project.project.id, email: 'stage@example.com' })).toBe(1);
    });

    it('keeps one contact when the same person arrives concurrently', async () => {
      const project = await t.seedProject();
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => upsert(project.project.id, { email: 'race@example.com', details: { [`k${i}`]: i } })),
      );
      const rows = await t.db.manager.findBy(ContactEntity, { projectId: project.project.id, email: 'race@example.com' });
      expect(rows).toHaveLength(1);
      expect(Object.keys(rows[0].details)).toHaveLength(10);
    });
  });

  describe('GET /v1/contacts', () => {
    /** A project with four contacts, oldest first: two on the waitlist, a paying user and a lead. */
    async function seedListed(): Promise<SeededProject> {
      const listed = await t.seedProject();
      const id = listed.project.id;
      await upsert(id, { email: 'w1@example.com', stage: 'waitlist', details: { plan: 'pro' }, consents: { news: 'granted' } });
      await upsert(id, { email: 'w2@example.com', stage: 'waitlist', details: { plan: 'free' }, consents: { news: 'withdrawn' } });
      await upsert(id, { email: 'u1@example.com', userId: 'u1', stage: 'user', details: { plan: 'pro', seats: 3 }, paying: true });
      await upsert(id, { email: 'l1@example.com' });
      return listed;
    }

    const emails = (res: { body: { data: { email: string }[] } }) => res.body.data.map((contact) => contact.email);

    it('lists newest first with cursor pagination', async () => {
      const listed = await seedListed();
      const first = await t.api.as(listed.secretKey).get('/v1/contacts?limit=3').expect(200);
      expect(emails(first)).toEqual(['l1@example.com', 'u1@example.com', 'w2@example.com']);
      expect(first.body.meta).toEqual({ next_cursor: expect.any(String), has_more: true });
      const second = await t.api.as(listed.secretKey).get(`/v1/contacts?limit=3&cursor=${first.body.meta.next_cursor}`).expect(200);
      expect(emails(second)).toEqual(['w1@example.com']);
      expect(second.body.meta).toEqual({ next_cursor: null, has_more: false });
    });

    it('filters by stage, consent, detail and paying', async () => {
      const listed = await seedListed();
      const get = (query: string) => t.api.as(listed.secretKey).get(`/v1/contacts?${query}`).expect(200);
      expect(emails(await get('stage=waitlist'))).toEqual(['w2@example.com', 'w1@example.com']);
      expect(emails(await get('consent=news'))).toEqual(['w1@example.com']);
      expect(emails(await get('consent=news:withdrawn'))).toEqual(['w2@example.com']);
      expect(emails(await get('detail=plan%3Dpro'))).toEqual(['u1@example.com', 'w1@example.com']);
      expect(emails(await get('detail=plan%3Dpro&detail=seats%3D3'))).toEqual(['u1@example.com']);
      expect(emails(await get('paying=true'))).toEqual(['u1@example.com']);
      expect(emails(await get('paying=false&stage=lead'))).toEqual(['l1@example.com']);
    });

    it('validates the query with param', async () => {
      const listed = await t.seedProject();
      const cases: [string, string][] = [
        ['stage=vip', 'stage'],
        ['paying=yes', 'paying'],
        ['detail=novalue', 'detail'],
        ['consent=news:maybe', 'consent'],
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['cursor=garbage', 'cursor'],
      ];
      for (const [query, param] of cases) {
        const res = await t.api.as(listed.secretKey).get(`/v1/contacts?${query}`).expect(400);
        expect({ query, param: res.body.error.param }).toEqual({ query, param });
      }
    });

    it("never shows another project's contacts", async () => {
      await seedListed();
      const project = await t.seedProject();
      await upsert(project.project.id, { email: 'own@example.com' });
      const res = await t.api.as(project.secretKey).get('/v1/contacts?limit=100').expect(200);
      expect(emails(res)).toEqual(['own@example.com']);
    });

    it('needs a secret key', async () => {
      const listed = await t.seedProject();
      expect((await t.api.as(listed.publishableKey).get('/v1/contacts').expect(403)).body.error.code).toBe('KEY_INSUFFICIENT_PERMISSIONS');
    });
  });
});
