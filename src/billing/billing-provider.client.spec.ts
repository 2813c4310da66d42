import { signatureTimestamp } from './billing-provider.client';

describe('signatureTimestamp', () => {
  it.each([
    ['t=1750000000,v1=abc', 1_750_000_000],
    ['v1=abc,t=1750000000', 1_750_000_000],
    ['t=1,t=1750000000,v1=abc', 1_750_000_000],
    ['t=1750000000x,v1=abc', 1_750_000_000],
  ])('reads %s as the package does', (header, expected) => {
    expect(signatureTimestamp(header)).toBe(expected);
  });

  it.each(['v1=abc', 't=,v1=abc', 't=soon,v1=abc', ''])('has no time in %p', (header) => {
    expect(signatureTimestamp(header)).toBeNull();
  });
});
