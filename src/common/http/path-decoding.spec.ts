import type { Request, Response } from 'express';
import { lenientPathDecoding } from './path-decoding';

function rewritten(url: string): string {
  const req = { url } as Request;
  let called = false;
  lenientPathDecoding(req, {} as Response, () => (called = true));
  expect(called).toBe(true);
  return req.url;
}

describe('lenientPathDecoding', () => {
  it('leaves a path that decodes as it is, query included', () => {
    for (const url of ['/v1/contacts/ct_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', '/v1/x/a%00b?q=%FF', '/v1/x/%F0%9F%98%80', '/v1/x/a%2Fb']) {
      expect(rewritten(url)).toBe(url);
    }
  });

  it('reads undecodable bytes as U+FFFD, segment by segment, and keeps the query', () => {
    expect(rewritten('/v1/contacts/%FF?limit=5')).toBe('/v1/contacts/%EF%BF%BD?limit=5');
    expect(rewritten('/v1/contacts/ab%E2%82')).toBe('/v1/contacts/ab%EF%BF%BD');
    expect(rewritten('/v1/x/%ED%A0%80/a%2Fb')).toBe('/v1/x/%EF%BF%BD%EF%BF%BD%EF%BF%BD/a%2Fb');
    expect(decodeURIComponent(rewritten('/v1/x/%zz'))).toBe('/v1/x/%zz');
    expect(decodeURIComponent(rewritten('/v1/x/100%'))).toBe('/v1/x/100%');
  });
});
