import { findUnstorableText, firstFailure } from './validation.pipe';

describe('validation pipe helpers', () => {
  it('finds NUL characters in nested strings and keys', () => {
    expect(findUnstorableText({ a: 'ok', b: { c: ['x', 'y\u0000'] } })).toBe('b.c.1');
    expect(findUnstorableText({ ['k\u0000']: 1 })).toBe('k\u0000');
    expect(findUnstorableText('bad\u0000')).toBe('body');
    expect(findUnstorableText({ a: 'fine', n: 1, t: true, z: null, emoji: '😀' })).toBeNull();
    expect(findUnstorableText({ email: 'a\ud800@example.com' })).toBe('email');
  });

  it('reports the first failing leaf with a dotted path', () => {
    const errors = [
      { property: 'source', children: [{ property: 'utm_source', constraints: { maxLength: 'utm_source is too long' }, children: [] }] },
    ];
    expect(firstFailure(errors as never)).toEqual({ path: 'source.utm_source', message: 'utm_source is too long' });
  });
});
