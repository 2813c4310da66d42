import { isValidSlug, slugFromName, withRandomSuffix } from './slugs';

describe('slugs', () => {
  it('derives lowercase hyphenated slugs from names', () => {
    expect(slugFromName('My Great App!')).toBe('my-great-app');
    expect(slugFromName('Café Déjà Vu')).toBe('cafe-deja-vu');
    expect(slugFromName('***')).toBe('project');
    expect(slugFromName('x'.repeat(80))).toHaveLength(33);
  });

  it('keeps suffixed slugs valid', () => {
    const slug = withRandomSuffix('a'.repeat(40));
    expect(slug).toHaveLength(40);
    expect(isValidSlug(slug)).toBe(true);
  });

  it('accepts 1 to 40 lowercase letters, digits and hyphens only', () => {
    expect(isValidSlug('a')).toBe(true);
    expect(isValidSlug('a'.repeat(41))).toBe(false);
    expect(isValidSlug('Abc')).toBe(false);
    expect(isValidSlug('a_b')).toBe(false);
    expect(isValidSlug('')).toBe(false);
  });
});
