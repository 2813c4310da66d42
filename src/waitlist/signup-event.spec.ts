import { fieldMismatch } from '../events/event-catalog';
import { placeSignup, signupDraft } from './signup-row';
import { signupCreatedData } from './signup-event';

const NOW = new Date('2026-11-20T10:00:00.000Z');

describe('signupCreatedData', () => {
  it('has exactly the fields of the event catalog, with absent attribution as null', () => {
    const signup = placeSignup(signupDraft('prj_1', { email: 'a@x.io', channel: 'widget', metadata: {}, source: {} }, NOW), 3);
    const data = signupCreatedData(signup);
    expect(fieldMismatch('waitlist.signup.created', data)).toEqual({ extra: [], missing: [] });
    expect(data).toEqual({
      signup_id: signup.id,
      email: 'a@x.io',
      position: 3,
      referral_code: signup.referralCode,
      referred: false,
      source: 'widget',
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      referrer: null,
      landing_path: null,
      metadata: {},
      created_at: '2026-11-20T10:00:00.000Z',
    });
  });

  it('says whether a referrer was credited and carries the attribution sent', () => {
    const draft = signupDraft(
      'prj_1',
      { email: 'a@x.io', channel: 'api', metadata: { k: 'v' }, source: { utm_campaign: 'launch' }, referredBySignupId: 'ws_1' },
      NOW,
    );
    expect(signupCreatedData(placeSignup(draft, 1))).toMatchObject({
      referred: true,
      source: 'api',
      utm_campaign: 'launch',
      metadata: { k: 'v' },
    });
  });
});
