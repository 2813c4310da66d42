import { hashLinkToken, issueLinkToken, oneClickUnsubscribe } from './link-tokens';

describe('issueLinkToken', () => {
  it('makes a URL-safe 32-byte token and keeps only its SHA-256 for storage', () => {
    const issued = issueLinkToken();
    expect(issued.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issued.hash).toBe(hashLinkToken(issued.token));
    expect(issued.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(issueLinkToken().token).not.toBe(issued.token);
  });
});

describe('oneClickUnsubscribe', () => {
  it('gives the RFC 2369 link and the RFC 8058 one-click marker', () => {
    expect(oneClickUnsubscribe('https://launch.test/u?token=abc')).toEqual({
      'List-Unsubscribe': '<https://launch.test/u?token=abc>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });
});
