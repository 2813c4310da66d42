import { fixedFieldOfPublished, mergeValues } from './entry-changes';
import { type EntryValues, NEW_ENTRY_DEFAULTS } from './entry-fields';

const base: EntryValues = { ...NEW_ENTRY_DEFAULTS, title: 'Export', bodyMarkdown: 'Body', category: 'feature' };

describe('mergeValues', () => {
  it('counts a field sent with its current value as no change', () => {
    const { changed } = mergeValues({ ...base, labels: ['a', 'b'] }, { title: 'Export', labels: ['b', 'a'], pinned: false });
    expect(changed).toEqual([]);
  });

  it('lists real changes and drops the segment when the audience leaves segment', () => {
    const current = { ...base, audience: 'segment' as const, segment: { match: 'all' as const, rules: [] } };
    const { next, changed } = mergeValues(current, { audience: 'public', pinned: true });
    expect(next.segment).toBeNull();
    expect(changed.sort()).toEqual(['audience', 'pinned', 'segment']);
  });

  it('compares dates by instant', () => {
    const current = { ...base, expiresAt: new Date('2026-12-01T00:00:00Z') };
    expect(mergeValues(current, { expiresAt: new Date('2026-12-01T01:00:00+01:00') }).changed).toEqual([]);
  });
});

describe('fixedFieldOfPublished', () => {
  it('allows labels, pinned, expires_at and announcement only', () => {
    expect(fixedFieldOfPublished(['labels', 'pinned', 'expiresAt', 'announcement'])).toBeNull();
    expect(fixedFieldOfPublished(['pinned', 'title'])).toBe('title');
  });
});
