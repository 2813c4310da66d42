import { validateSync } from 'class-validator';
import { CharLength, codePointLength } from './char-length';

class Sample {
  @CharLength(2, 4)
  value: unknown;
}

const errorsFor = (value: unknown) => validateSync(Object.assign(new Sample(), { value }));

describe('codePointLength', () => {
  it('counts an astral character (emoji) once, unlike String#length', () => {
    expect(codePointLength('👍👍')).toBe(2);
    expect('👍👍'.length).toBe(4);
  });

  it('counts a variation selector as its own code point, as PostgreSQL varchar does', () => {
    expect(codePointLength('❤️')).toBe(2);
  });
});

describe('CharLength', () => {
  it('accepts strings within the bounds', () => {
    expect(errorsFor('ab')).toEqual([]);
    expect(errorsFor('👍👍👍👍')).toEqual([]);
  });

  it('refuses strings outside the bounds with the length it saw', () => {
    expect(errorsFor('a')[0].constraints?.charLength).toBe('value must be 2 to 4 characters long (got 1)');
    expect(errorsFor('abcde')[0].constraints?.charLength).toBe('value must be 2 to 4 characters long (got 5)');
  });

  it('refuses NUL characters, which PostgreSQL text cannot store', () => {
    expect(errorsFor('a\u0000b')[0].constraints?.charLength).toBe('value must not contain NUL characters');
  });

  it('refuses values that are not strings', () => {
    expect(errorsFor(42)[0].constraints?.charLength).toBe('value must be a string');
    expect(errorsFor(['ab'])[0].constraints?.charLength).toBe('value must be a string');
  });
});
