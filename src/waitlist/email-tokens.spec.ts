import {
  confirmUrl,
  hashEmailToken,
  issueConfirmationTokens,
  issueEmailToken,
  issueUnsubscribeToken,
  unsubscribeUrl,
} from './email-tokens';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const SIGNUP = { id: 'ws_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', projectId: 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' };

describe('issueEmailToken', () => {
  it('makes a URL-safe 32-byte token and keeps only its SHA-256 for storage', () => {
    const issued = issueEmailToken();
    expect(issued.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issued.hash).toBe(hashEmailToken(issued.token));
    expect(issued.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(issueEmailToken().token).not.toBe(issued.token);
  });
});

describe('issueConfirmationTokens', () => {
  it('gives one confirm and one unsubscribe token, stored hashed for that signup', () => {
    const tokens = issueConfirmationTokens(SIGNUP, NOW);
    expect(tokens.rows).toEqual([
      { tokenHash: hashEmailToken(tokens.confirm), projectId: SIGNUP.projectId, signupId: SIGNUP.id, purpose: 'confirm', createdAt: NOW },
      {
        tokenHash: hashEmailToken(tokens.unsubscribe),
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
      tokenHash: hashEmailToken(token),
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
