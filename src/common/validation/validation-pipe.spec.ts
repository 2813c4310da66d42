import { findNulCharacter, firstFailure } from './validation-pipe';

describe('validation pipe helpers', () => {
  it('finds NUL characters in nested strings and keys', () => {
    expect(findNulCharacter({ a: 'ok', b: { c: ['x', 'y\u0000'] } })).toBe('b.c.1');
    expect(findNulCharacter({ ['k\u0000']: 1 })).toBe('k\u0000');
    expect(findNulCharacter('bad\u0000')).toBe('body');
    expect(findNulCharacter({ a: 'fine', n: 1, t: true, z: null })).toBeNull();
  });

  it('reports the first failing leaf with a dotted path', () => {
    const errors = [
      { property: 'source', children: [{ property: 'utm_source', constraints: { maxLength: 'utm_source is too long' }, children: [] }] },
    ];
    expect(firstFailure(errors as never)).toEqual({ path: 'source.utm_source', message: 'utm_source is too long' });
  });
});
