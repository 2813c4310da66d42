import { compactSource, placeSignup, signupDraft } from './signup-row';
import { WaitlistSignupEntity } from './entities/waitlist-signup.entity';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const PROJECT_ID = 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M';

describe('signupDraft', () => {
  it('starts an API signup waiting, unconfirmed, with its confirmation email sent now', () => {
    const draft = signupDraft(
      PROJECT_ID,
      { email: 'ada@example.com', channel: 'widget', metadata: { seats: 3 }, source: { utm_source: 'news' }, referredBySignupId: 'ws_1' },
      NOW,
    );
    expect(draft).toEqual({
      id: expect.stringMatching(/^ws_[0-9A-HJKMNP-TV-Z]{26}$/),
      projectId: PROJECT_ID,
      email: 'ada@example.com',
      referralCode: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{8}$/),
      referredBySignupId: 'ws_1',
      referralCount: 0,
      status: 'waiting',
      channel: 'widget',
      confirmedAt: null,
      invitedAt: null,
      unsubscribedAt: null,
      lastConfirmationSentAt: NOW,
      metadata: { seats: 3 },
      source: { utm_source: 'news' },
      createdAt: NOW,
    });
  });

  it('keeps an imported signup its own state, without a referrer or a confirmation email', () => {
    const joined = new Date('2026-01-02T03:04:05.000Z');
    const draft = signupDraft(
      PROJECT_ID,
      {
        email: 'b@x.io',
        channel: 'import',
        metadata: {},
        source: {},
        status: 'invited',
        confirmedAt: joined,
        invitedAt: NOW,
        createdAt: joined,
      },
      NOW,
    );
    expect(draft).toMatchObject({
      status: 'invited',
      confirmedAt: joined,
      invitedAt: NOW,
      unsubscribedAt: null,
      referredBySignupId: null,
      lastConfirmationSentAt: null,
      createdAt: joined,
    });
  });

  it('gives every draft its own id and referral code', () => {
    const input = { email: 'a@x.io', channel: 'api' as const, metadata: {}, source: {} };
    const [one, two] = [signupDraft(PROJECT_ID, input, NOW), signupDraft(PROJECT_ID, input, NOW)];
    expect(one.id).not.toBe(two.id);
    expect(one.referralCode).not.toBe(two.referralCode);
  });
});

describe('placeSignup', () => {
  it('makes the entity at its position', () => {
    const draft = signupDraft(PROJECT_ID, { email: 'a@x.io', channel: 'api', metadata: {}, source: {} }, NOW);
    const signup = placeSignup(draft, 7);
    expect(signup).toBeInstanceOf(WaitlistSignupEntity);
    expect(signup).toEqual({ ...draft, position: 7 });
  });
});

describe('compactSource', () => {
  it('keeps the string fields that were sent and drops the rest', () => {
    expect(compactSource(undefined)).toEqual({});
    expect(compactSource({ utm_source: 'news', landing_path: '/join' })).toEqual({ utm_source: 'news', landing_path: '/join' });
  });
});
