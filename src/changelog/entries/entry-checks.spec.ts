import { checkCta, checkEntryValues, isCtaUrl } from './entry-checks';
import { type EntryValues, NEW_ENTRY_DEFAULTS } from './entry-fields';
import { apiFailureOf } from '../../../test/support/api-failure';

const NOW = new Date('2026-11-20T10:00:00Z');
const base: EntryValues = { ...NEW_ENTRY_DEFAULTS, title: 'Export', bodyMarkdown: 'Body', category: 'feature' };

describe('checkEntryValues', () => {
  const all = new Set(Object.keys(base) as (keyof EntryValues)[]);
  const check = (values: Partial<EntryValues>) => () => checkEntryValues({ ...base, ...values }, all, NOW);

  it('accepts a plain entry', () => {
    expect(check({})).not.toThrow();
  });

  it('refuses unsafe markdown, naming the URL and the rule', () => {
    const problem = apiFailureOf(check({ bodyMarkdown: 'See [this](javascript:alert(1))' }));
    expect(problem).toMatchObject({ code: 'VALIDATION_ERROR', param: 'body_markdown' });
    expect(problem.message).toContain('javascript:alert(1)');
    expect(problem.message).toContain('javascript: is not allowed');
    expect(apiFailureOf(check({ bodyMarkdown: '![x](http://cdn.example.com/a.png)' })).message).toContain('images must be https://');
  });

  it('takes cover images over https only', () => {
    expect(check({ coverImageUrl: 'https://cdn.example.com/a.png' })).not.toThrow();
    for (const url of ['http://cdn.example.com/a.png', 'data:image/png;base64,AAAA', 'javascript:alert(1)', '/a.png']) {
      expect(apiFailureOf(check({ coverImageUrl: url }))).toMatchObject({ param: 'cover_image_url' });
    }
  });

  it('needs the audience and the segment to agree', () => {
    expect(apiFailureOf(check({ audience: 'segment' }))).toMatchObject({ param: 'segment' });
    expect(apiFailureOf(check({ segment: { match: 'all', rules: [] } }))).toMatchObject({ param: 'segment' });
  });

  it('needs scheduled_at and announcement.until in the future when they are set', () => {
    expect(apiFailureOf(check({ scheduledAt: NOW }))).toMatchObject({ param: 'scheduled_at' });
    expect(apiFailureOf(check({ announcement: { style: 'banner', until: new Date('2026-11-01T00:00:00Z') } }))).toMatchObject({
      param: 'announcement.until',
    });
    const past = { ...base, scheduledAt: new Date('2020-01-01T00:00:00Z') };
    expect(() => checkEntryValues(past, new Set(['title']), NOW)).not.toThrow();
  });
});

describe('checkCta and isCtaUrl', () => {
  it('needs both or neither, naming the missing one', () => {
    expect(() => checkCta(null, null)).not.toThrow();
    expect(() => checkCta('Try it', '/pricing')).not.toThrow();
    expect(apiFailureOf(() => checkCta('Try it', null))).toMatchObject({ param: 'cta_url' });
    expect(apiFailureOf(() => checkCta(null, '/pricing'))).toMatchObject({ param: 'cta_label' });
    expect(apiFailureOf(() => checkCta('Go', 'javascript:alert(1)'))).toMatchObject({ param: 'cta_url' });
  });

  it.each([
    ['https://example.com/pricing', true],
    ['http://example.com', true],
    ['/pricing?plan=pro', true],
    ['//evil.example.com', false],
    ['/\\evil.example.com', false],
    ['pricing', false],
    ['mailto:a@example.com', false],
    ['javascript:alert(1)', false],
    ['/a b', false],
  ])('%s → %s', (url, ok) => {
    expect(isCtaUrl(url)).toBe(ok);
  });
});
