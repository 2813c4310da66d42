import { SeededProject, TestApp } from '../support/test-app';
import { linkIn, mailsTo, signupByEmail } from './waitlist-test-helpers';

describe('waitlist stats and leaderboard', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await TestApp.start();
  });
  afterAll(() => t.close());

  async function join(seeded: SeededProject, email: string, referrerEmail?: string): Promise<void> {
    const referrer_code = referrerEmail ? (await signupByEmail(t, seeded.project.id, referrerEmail)).referralCode : undefined;
    await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email, referrer_code }).expect(201);
  }

  /** ann refers 3, bob 2, cat 1, in that order of signup; 3 people came without a referrer. */
  async function seedReferrals(): Promise<SeededProject> {
    const seeded = await t.seedProject({ plan: 'indie' });
    await join(seeded, 'ann@x.io');
    await join(seeded, 'bob@x.io');
    await join(seeded, 'cat@x.io');
    for (const email of ['a1@x.io', 'a2@x.io', 'a3@x.io']) await join(seeded, email, 'ann@x.io');
    for (const email of ['b1@x.io', 'b2@x.io']) await join(seeded, email, 'bob@x.io');
    await join(seeded, 'c1@x.io', 'cat@x.io');
    return seeded;
  }

  describe('GET /v1/waitlist/stats', () => {
    it('answers zeros for an empty waitlist', async () => {
      const seeded = await t.seedProject({ plan: 'indie' });
      const res = await t.api.as(seeded.secretKey).get('/v1/waitlist/stats').expect(200);
      expect(res.body).toEqual({
        data: {
          total_signups: 0,
          confirmed_count: 0,
          invited_count: 0,
          via_referral_count: 0,
          referral_conversion_rate: 0,
          top_referrers: [],
        },
        error: null,
      });
    });

    it('counts signups, confirmations, invites and referrals', async () => {
      const seeded = await seedReferrals();
      for (const email of ['ann@x.io', 'b1@x.io']) {
        const [mail] = await mailsTo(t, seeded.project.id, email);
        await t.api.post(linkIn(mail.textBody, 'confirm')).expect(200);
      }
      await t.api.as(seeded.secretKey).post('/v1/waitlist/invites').send({ count: 2 }).expect(200);

      const res = await t.api.as(seeded.secretKey).get('/v1/waitlist/stats').expect(200);
      const id = async (email: string) => (await signupByEmail(t, seeded.project.id, email)).id;
      expect(res.body.data).toEqual({
        total_signups: 9,
        confirmed_count: 2,
        invited_count: 2,
        via_referral_count: 6,
        referral_conversion_rate: 0.6667,
        top_referrers: [
          { signup_id: await id('ann@x.io'), email: 'ann@x.io', referral_count: 3 },
          { signup_id: await id('bob@x.io'), email: 'bob@x.io', referral_count: 2 },
          { signup_id: await id('cat@x.io'), email: 'cat@x.io', referral_count: 1 },
        ],
      });
    });

    it('shows another project nothing of this one', async () => {
      await seedReferrals();
      const other = await t.seedProject();
      const res = await t.api.as(other.secretKey).get('/v1/waitlist/stats').expect(200);
      expect(res.body.data.total_signups).toBe(0);
    });

    it('refuses the publishable key and a missing key', async () => {
      const seeded = await t.seedProject({ plan: 'indie' });
      expect((await t.api.as(seeded.publishableKey).get('/v1/waitlist/stats').expect(403)).body.error.code).toBe(
        'KEY_INSUFFICIENT_PERMISSIONS',
      );
      expect((await t.api.get('/v1/waitlist/stats').expect(401)).body.error.code).toBe('MISSING_AUTH');
    });
  });

  describe('GET /v1/waitlist/leaderboard', () => {
    it('ranks people by referrals, earliest signup first on ties, with masked emails', async () => {
      const seeded = await seedReferrals();
      await join(seeded, 'c2@x.io', 'cat@x.io'); // cat now ties bob with 2; bob signed up first
      const res = await t.api.as(seeded.secretKey).get('/v1/waitlist/leaderboard').expect(200);
      expect(res.body).toEqual({
        data: [
          { rank: 1, masked_email: 'a***@x***.io', referral_count: 3 },
          { rank: 2, masked_email: 'b***@x***.io', referral_count: 2 },
          { rank: 3, masked_email: 'c***@x***.io', referral_count: 2 },
        ],
        error: null,
      });
    });

    it('leaves out people who unsubscribed', async () => {
      const seeded = await seedReferrals();
      const [mail] = await mailsTo(t, seeded.project.id, 'bob@x.io');
      await t.api.post(linkIn(mail.textBody, 'unsubscribe')).expect(200);
      const res = await t.api.as(seeded.secretKey).get('/v1/waitlist/leaderboard').expect(200);
      expect(res.body.data).toEqual([
        { rank: 1, masked_email: 'a***@x***.io', referral_count: 3 },
        { rank: 2, masked_email: 'c***@x***.io', referral_count: 1 },
      ]);
    });

    it('lists at most 50 people', async () => {
      const big = await t.seedProject();
      const codes: string[] = [];
      for (let n = 0; n < 52; n += 1) {
        const res = await t.api
          .as(big.secretKey)
          .post('/v1/waitlist/signups')
          .send({ email: `hub${n}@x.io` })
          .expect(201);
        codes.push(res.body.data.referral_code);
      }
      for (const [n, code] of codes.entries()) {
        await t.api
          .as(big.secretKey)
          .post('/v1/waitlist/signups')
          .send({ email: `fan${n}@x.io`, referrer_code: code })
          .expect(201);
      }
      const res = await t.api.as(big.secretKey).get('/v1/waitlist/leaderboard').expect(200);
      expect(res.body.data).toHaveLength(50);
      expect(res.body.data[49]).toEqual({ rank: 50, masked_email: 'h***@x***.io', referral_count: 1 });
    });

    it('refuses the publishable key', async () => {
      const seeded = await t.seedProject({ plan: 'indie' });
      const res = await t.api.as(seeded.publishableKey).get('/v1/waitlist/leaderboard').expect(403);
      expect(res.body).toMatchObject({ data: null, error: { code: 'KEY_INSUFFICIENT_PERMISSIONS' } });
    });
  });
});
