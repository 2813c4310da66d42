import {
  REFERRAL_CODE_PATTERN,
  generateReferralCode,
  maskEmail,
  normalizeReferralCode,
  referralConversionRate,
  referralLink,
  signupResultPlan,
} from './referral';

describe('maskEmail', () => {
  it.each([
    ['ada@example.com', 'a***@e***.com'],
    ['bob.smith@mail.example.co.uk', 'b***@m***.uk'],
    ['x@localhost', 'x***@l***'],
    ['@example.com', '***@e***.com'],
    ['no-at-sign', '***'],
    ['élodie@exämple.fr', 'é***@e***.fr'],
    ['weird@name@example.org', 'w***@e***.org'],
  ])('masks %s as %s', (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });

  it('never reveals more than the first character of the name and of the domain', () => {
    expect(maskEmail('secretperson@privatecompany.io')).not.toMatch(/ecret|rivate/);
  });
});

describe('generateReferralCode', () => {
  it('makes 8 upper-case letters or digits without I, L, O or U', () => {
    for (let index = 0; index < 200; index += 1) {
      const code = generateReferralCode();
      expect(code).toMatch(REFERRAL_CODE_PATTERN);
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    }
  });

  it('uses its random source for every character', () => {
    expect(generateReferralCode(() => 0)).toBe('00000000');
    expect(generateReferralCode((max) => max - 1)).toBe('ZZZZZZZZ');
  });
});

describe('normalizeReferralCode', () => {
  it('upper-cases what people type', () => {
    expect(normalizeReferralCode('k7m2q9xa')).toBe('K7M2Q9XA');
  });
});

describe('referralLink', () => {
  it('points at the project page on the base url with the code', () => {
    expect(referralLink('https://launch.test', 'acme', 'K7M2Q9XA')).toBe('https://launch.test/w/acme?ref=K7M2Q9XA');
  });
});

describe('signupResultPlan', () => {
  it('keeps the plans of the spec enum and reports scale as builder', () => {
    expect(signupResultPlan('free')).toBe('free');
    expect(signupResultPlan('indie')).toBe('indie');
    expect(signupResultPlan('builder')).toBe('builder');
    expect(signupResultPlan('scale')).toBe('builder');
  });
});

describe('referralConversionRate', () => {
  it('is the share of signups that came through a referral, 4 decimals, 0 when empty', () => {
    expect(referralConversionRate(0, 0)).toBe(0);
    expect(referralConversionRate(1, 3)).toBe(0.3333);
    expect(referralConversionRate(5, 5)).toBe(1);
  });
});
