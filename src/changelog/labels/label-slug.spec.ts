import { slugFromName, uniqueSlug } from './label-slug';

describe('slugFromName', () => {
  it.each([
    ['Export', 'export'],
    ['  New & Improved!  ', 'new-improved'],
    ['Déjà vu', 'deja-vu'],
    ['API v2.0', 'api-v2-0'],
    ['🎉🎉', 'label'],
    ['a'.repeat(39) + ' b', 'a'.repeat(39)],
  ])('%j → %j', (name, slug) => {
    expect(slugFromName(name)).toBe(slug);
  });

  it('never exceeds 40 characters', () => {
    expect(slugFromName('x'.repeat(50))).toHaveLength(40);
  });
});

describe('uniqueSlug', () => {
  it('keeps a free slug and numbers a taken one from 2', () => {
    expect(uniqueSlug('export', new Set())).toBe('export');
    expect(uniqueSlug('export', new Set(['export']))).toBe('export-2');
    expect(uniqueSlug('export', new Set(['export', 'export-2']))).toBe('export-3');
  });

  it('shortens a long base to fit the suffix', () => {
    const base = 'y'.repeat(40);
    expect(uniqueSlug(base, new Set([base]))).toBe(`${'y'.repeat(38)}-2`);
  });
});
