import { ApiError } from '../common/errors/api-error';
import { inviteTarget } from './invites.service';
import { referralConversionRate } from './waitlist-queries.service';

describe('inviteTarget', () => {
  it('takes count or specific_email', () => {
    expect(inviteTarget({ count: 5 })).toEqual({ count: 5 });
    expect(inviteTarget({ specific_email: 'ada@example.com' })).toEqual({ email: 'ada@example.com' });
  });

  it.each([
    [{ count: 1, specific_email: 'a@x.io' }, 'specific_email'],
    [{}, 'count'],
  ])('refuses %j with VALIDATION_ERROR on %s', (input, param) => {
    expect(() => inviteTarget(input)).toThrow(ApiError);
    try {
      inviteTarget(input);
    } catch (error) {
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR', param });
    }
  });
});

describe('referralConversionRate', () => {
  it('is the share of signups that came through a referral, 4 decimals, 0 when empty', () => {
    expect(referralConversionRate(0, 0)).toBe(0);
    expect(referralConversionRate(1, 3)).toBe(0.3333);
    expect(referralConversionRate(5, 5)).toBe(1);
  });
});
