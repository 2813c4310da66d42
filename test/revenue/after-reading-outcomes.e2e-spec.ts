import { newId } from '../../src/common/ids/ids';
import { ContactEntity } from '../../src/contacts/entities/contact.entity';
import { seedEntry } from '../support/changelog-seed';
import { FakeStripeReads } from '../support/fake-stripe-reads';
import { TestApp } from '../support/test-app';

const KEY = 'rk_live_afterreading0001';
const unix = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

function invoice(id: string, customer: string, amount: number, paidAt: string | null) {
  return {
    id,
    object: 'invoice',
    customer,
    status: paidAt ? 'paid' : 'open',
    currency: 'usd',
    amount_paid: paidAt ? amount : 0,
    status_transitions: { paid_at: paidAt ? unix(paidAt) : null },
  };
}

describe('After-reading paid and upgraded, from the processor connection', () => {
  let stripe: FakeStripeReads;
  let t: TestApp;

  beforeAll(async () => {
    stripe = await FakeStripeReads.start();
    t = await TestApp.start({ env: { STRIPE_API_URL: stripe.url } });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });
  afterEach(() => expect(stripe.writes).toEqual([]));

  /**
   * Entry published Nov 1; window Nov 1 to Nov 15. By hand:
   *   readers r1 (first paid invoice Nov 5: paid), r2 (2000 in Oct, 5000 Nov 5: upgraded),
   *   r3 (2000, then 2000: neither) → 3 people, paid 1, upgraded 1;
   *   non-readers n1 (first paid Nov 10: paid), n2 (matched by email; 3000 then 1000: neither, and an
   *   unpaid invoice that does not count) → 2 people, paid 1, upgraded 0.
   */
  it('counts first payments and larger payments per group, with rates', async () => {
    const seeded = await t.seedProject({ plan: 'builder' });
    const projectId = seeded.project.id;
    const entry = await seedEntry(t, projectId, { publishedAt: new Date('2026-11-01T00:00:00Z') });
    for (const [userId, email] of [
      ['n1', null],
      ['n2', 'n2@example.com'],
    ]) {
      const at = new Date('2026-10-01T00:00:00Z');
      await t.db.manager.getRepository(ContactEntity).insert({
        id: newId('ct'),
        projectId,
        email,
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
         ($1, 'r1', $2, '2026-11-02T00:00:00Z'), ($1, 'r2', $2, '2026-11-02T00:00:00Z'), ($1, 'r3', $2, '2026-11-03T00:00:00Z')`,
      [entry.id, projectId],
    );
    const customer = (id: string, userId: string | null, email: string | null = null) => ({
      id,
      object: 'customer',
      email,
      metadata: userId ? { user_id: userId } : {},
    });
    stripe.data.customers.push(
      customer('cus_r1', 'r1'),
      customer('cus_r2', 'r2'),
      customer('cus_r3', 'r3'),
      customer('cus_n1', 'n1'),
      customer('cus_n2', null, 'N2@example.com'),
    );
    stripe.data.invoices.push(
      invoice('in_1', 'cus_r1', 2000, '2026-11-05T00:00:00Z'),
      invoice('in_2', 'cus_r2', 2000, '2026-10-05T00:00:00Z'),
      invoice('in_3', 'cus_r2', 5000, '2026-11-05T00:00:00Z'),
      invoice('in_4', 'cus_r3', 2000, '2026-10-05T00:00:00Z'),
      invoice('in_5', 'cus_r3', 2000, '2026-11-05T00:00:00Z'),
      invoice('in_6', 'cus_n1', 1000, '2026-11-10T00:00:00Z'),
      invoice('in_7', 'cus_n2', 3000, '2026-09-01T00:00:00Z'),
      invoice('in_8', 'cus_n2', 1000, '2026-11-03T00:00:00Z'),
      invoice('in_9', 'cus_n2', 9000, null),
    );
    stripe.addKey(KEY);
    t.clock.freeze('2026-11-20T00:00:00Z');
    const path = `/v1/changelog/entries/${entry.id}/after-reading`;

    await t.api.as(seeded.secretKey).put('/v1/revenue/connection').send({ key: KEY }).expect(200);
    await t.drainJobs();
    const res = await t.api.as(seeded.secretKey).get(path).expect(200);
    expect(res.body.data.readers).toEqual({ people: 3, paid: 1, paid_rate: 0.333, upgraded: 1, upgraded_rate: 0.333, signed_up: null });
    expect(res.body.data.non_readers).toEqual({ people: 2, paid: 1, paid_rate: 0.5, upgraded: 0, upgraded_rate: 0, signed_up: null });
    // Fewer than 30 people in each group.
    expect(res.body.data.small_numbers).toBe(true);
    expect(res.body.data.notes.map((note: { code: string }) => note.code)).toEqual(['not_computed']);
  });
});
