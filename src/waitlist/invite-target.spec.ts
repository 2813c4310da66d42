import { ApiError } from '../common/errors/api-error';
import { inviteTarget } from './invite-target';

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
