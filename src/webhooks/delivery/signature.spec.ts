import { createHmac } from 'node:crypto';
import { signatureHeader, signaturePart } from './signature';

describe('webhook signature', () => {
  const body = '{"id":"evt_1","type":"feedback.created"}';

  it('is the hex HMAC-SHA256 of "<t>.<body>" keyed with the secret', () => {
    const expected = createHmac('sha256', 'whsec_abc').update(`1700000000.${body}`).digest('hex');
    expect(signaturePart('whsec_abc', 1700000000, body)).toBe(expected);
    expect(signatureHeader(['whsec_abc'], 1700000000, body)).toBe(`t=1700000000,v1=${expected}`);
  });

  it('adds one v1 per extra secret, in order, and floors the timestamp', () => {
    const header = signatureHeader(['new', 'old'], 1700000000.9, body);
    expect(header).toBe(`t=1700000000,v1=${signaturePart('new', 1700000000, body)},v1=${signaturePart('old', 1700000000, body)}`);
  });

  it('changes with the body, the time and the secret', () => {
    const base = signaturePart('s', 1, body);
    expect(signaturePart('s', 2, body)).not.toBe(base);
    expect(signaturePart('t', 1, body)).not.toBe(base);
    expect(signaturePart('s', 1, `${body} `)).not.toBe(base);
  });

  it('refuses to sign without a secret', () => {
    expect(() => signatureHeader([], 1, body)).toThrow(/secret/);
  });
});
