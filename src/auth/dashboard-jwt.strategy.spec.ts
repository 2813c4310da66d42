import { timeClaimProblem } from './dashboard-jwt.strategy';

describe('timeClaimProblem', () => {
  const now = 1_750_000_000;

  it.each([
    ['no iat or nbf', {}],
    ['iat now', { iat: now }],
    ['iat in the past', { iat: now - 3600 }],
    ['iat a minute ahead (clock skew)', { iat: now + 60 }],
    ['nbf a minute ahead (clock skew)', { nbf: now + 60 }],
    ['nbf in the past', { nbf: now - 10 }],
  ])('accepts %s', (_case, claims) => {
    expect(timeClaimProblem(claims, now)).toBeNull();
  });

  it.each([
    ['iat beyond the skew', { iat: now + 61 }, 'The sign-in token was issued more than a minute in the future (iat).'],
    ['iat far in the future', { iat: now + 86_400 * 365 }, 'The sign-in token was issued more than a minute in the future (iat).'],
    ['nbf beyond the skew', { nbf: now + 61 }, 'The sign-in token is not valid yet.'],
    ['a string iat', { iat: 'tomorrow' }, 'The sign-in token has a malformed issue time (iat).'],
    ['an infinite iat', { iat: Number.POSITIVE_INFINITY }, 'The sign-in token has a malformed issue time (iat).'],
    ['a string nbf', { nbf: '0' }, 'The sign-in token has a malformed start time (nbf).'],
  ])('refuses %s', (_case, claims, message) => {
    expect(timeClaimProblem(claims, now)).toBe(message);
  });
});
