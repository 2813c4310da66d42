import { hashLinkToken } from '../common/email-links/link-tokens';
import { confirmUrl, issueConfirmationTokens, issueUnsubscribeToken, unsubscribeUrl } from './email-tokens';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const SIGNUP = { id: 'ws_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', projectId: 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' };

describe('issueConfirmationTokens', () => {
  it('gives one confirm and one unsubscribe token, stored hashed for that signup', () => {
    const tokens = issueConfirmationTokens(SIGNUP, NOW);
    expect(tokens.rows).toEqual([
      { tokenHash: hashLinkToken(tokens.confirm), projectId: SIGNUP.projectId, signupId: SIGNUP.id, purpose: 'confirm', createdAt: NOW },
      {
        tokenHash: hashLinkToken(tokens.unsubscribe),
        projectId: SIGNUP.projectId,
        signupId: SIGNUP.id,
        purpose: 'unsubscribe',
        createdAt: NOW,
      },
    ]);
    expect(tokens.confirm).not.toBe(tokens.unsubscribe);
  });
});

describe('issueUnsubscribeToken', () => {
  it('gives an unsubscribe token and its row', () => {
    const { token, row } = issueUnsubscribeToken(SIGNUP, NOW);
    expect(row).toEqual({
      tokenHash: hashLinkToken(token),
      projectId: SIGNUP.projectId,
      signupId: SIGNUP.id,
      purpose: 'unsubscribe',
      createdAt: NOW,
    });
  });
});

describe('link urls', () => {
  it('point at the public link routes on the base url', () => {
    expect(confirmUrl('https://launch.test', 'abc')).toBe('https://launch.test/v1/waitlist/confirm?token=abc');
    expect(unsubscribeUrl('https://launch.test', 'abc')).toBe('https://launch.test/v1/waitlist/unsubscribe?token=abc');
  });
});
