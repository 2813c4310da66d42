import { ApiError } from '../../common/errors/api-error';
import {
  type EntryValues,
  NEW_ENTRY_DEFAULTS,
  checkCta,
  checkEntryValues,
  fixedFieldOfPublished,
  isCtaUrl,
  mergeValues,
  parseSegment,
  sentValues,
  statusOnCreate,
} from './entry-input';

const NOW = new Date('2026-11-20T10:00:00Z');
const base: EntryValues = { ...NEW_ENTRY_DEFAULTS, title: 'Export', bodyMarkdown: 'Body', category: 'feature' };

function failure(run: () => unknown): { code: string; param?: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a failure');
}

describe('sentValues', () => {
  it('trims title and version, keeps the body as sent, parses times', () => {
    expect(sentValues({ title: '  Export ', version: ' 2.0 ', body_markdown: '  *x*\n', scheduled_at: '2026-12-01T00:00:00Z' })).toEqual({
      title: 'Export',
      version: '2.0',
      bodyMarkdown: '  *x*\n',
      scheduledAt: new Date('2026-12-01T00:00:00Z'),
    });
  });

  it('refuses blank text and null for fields that need a value', () => {
    expect(failure(() => sentValues({ title: '   ' }))).toMatchObject({ code: 'VALIDATION_ERROR', param: 'title' });
    expect(failure(() => sentValues({ body_markdown: ' \n ' }))).toMatchObject({ param: 'body_markdown' });
    expect(failure(() => sentValues({ title: null as unknown as string }))).toMatchObject({ param: 'title' });
    expect(failure(() => sentValues({ pinned: null as unknown as boolean }))).toMatchObject({ param: 'pinned' });
    expect(sentValues({ version: null, cta_url: null })).toEqual({ version: null, ctaUrl: null });
  });

  it('collapses duplicate label slugs', () => {
    expect(sentValues({ labels: ['a', 'b', 'a'] })).toEqual({ labels: ['a', 'b'] });
  });
});

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

describe('checkEntryValues', () => {
  const all = new Set(Object.keys(base) as (keyof EntryValues)[]);
  const check = (values: Partial<EntryValues>) => () => checkEntryValues({ ...base, ...values }, all, NOW);

  it('accepts a plain entry', () => {
    expect(check({})).not.toThrow();
  });

  it('refuses unsafe markdown, naming the URL and the rule', () => {
    const problem = failure(check({ bodyMarkdown: 'See [this](javascript:alert(1))' }));
    expect(problem).toMatchObject({ code: 'VALIDATION_ERROR', param: 'body_markdown' });
    expect(problem.message).toContain('javascript:alert(1)');
    expect(problem.message).toContain('javascript: is not allowed');
    expect(failure(check({ bodyMarkdown: '![x](http://cdn.example.com/a.png)' })).message).toContain('images must be https://');
  });

  it('takes cover images over https only', () => {
    expect(check({ coverImageUrl: 'https://cdn.example.com/a.png' })).not.toThrow();
    for (const url of ['http://cdn.example.com/a.png', 'data:image/png;base64,AAAA', 'javascript:alert(1)', '/a.png']) {
      expect(failure(check({ coverImageUrl: url }))).toMatchObject({ param: 'cover_image_url' });
    }
  });

  it('needs the audience and the segment to agree', () => {
    expect(failure(check({ audience: 'segment' }))).toMatchObject({ param: 'segment' });
    expect(failure(check({ segment: { match: 'all', rules: [] } }))).toMatchObject({ param: 'segment' });
  });

  it('needs scheduled_at and announcement.until in the future when they are set', () => {
    expect(failure(check({ scheduledAt: NOW }))).toMatchObject({ param: 'scheduled_at' });
    expect(failure(check({ announcement: { style: 'banner', until: new Date('2026-11-01T00:00:00Z') } }))).toMatchObject({
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
    expect(failure(() => checkCta('Try it', null))).toMatchObject({ param: 'cta_url' });
    expect(failure(() => checkCta(null, '/pricing'))).toMatchObject({ param: 'cta_label' });
    expect(failure(() => checkCta('Go', 'javascript:alert(1)'))).toMatchObject({ param: 'cta_url' });
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

describe('parseSegment', () => {
  it('accepts every rule kind and fills the consent status', () => {
    expect(
      parseSegment({
        match: 'any',
        rules: [
          { type: 'detail', key: 'plan', op: 'eq', value: 'pro' },
          { type: 'detail', key: 'plan', op: 'in', value: ['pro', 'team'] },
          { type: 'detail', key: 'company', op: 'exists' },
          { type: 'consent', purpose: 'product_updates' },
        ],
      }),
    ).toEqual({
      match: 'any',
      rules: [
        { type: 'detail', key: 'plan', op: 'eq', value: 'pro' },
        { type: 'detail', key: 'plan', op: 'in', value: ['pro', 'team'] },
        { type: 'detail', key: 'company', op: 'exists' },
        { type: 'consent', purpose: 'product_updates', status: 'granted' },
      ],
    });
  });

  const rule = { type: 'detail', key: 'plan', op: 'eq', value: 'pro' };
  it.each([
    ['not an object', [], 'segment'],
    ['a bad match', { match: 'some', rules: [rule] }, 'segment.match'],
    ['no rules', { match: 'all', rules: [] }, 'segment.rules'],
    ['11 rules', { match: 'all', rules: Array(11).fill(rule) }, 'segment.rules'],
    ['an unknown key', { match: 'all', rules: [rule], extra: 1 }, 'segment.extra'],
    ['a bad type', { match: 'all', rules: [rule, { type: 'x' }] }, 'segment.rules[1].type'],
    ['a bad op', { match: 'all', rules: [rule, rule, rule, { ...rule, op: 'gt' }] }, 'segment.rules[3].op'],
    ['eq with a list', { match: 'all', rules: [{ ...rule, value: ['a'] }] }, 'segment.rules[0].value'],
    ['in with a string', { match: 'all', rules: [{ ...rule, op: 'in', value: 'a' }] }, 'segment.rules[0].value'],
    ['in with a number', { match: 'all', rules: [{ ...rule, op: 'in', value: ['a', 2] }] }, 'segment.rules[0].value[1]'],
    ['exists with a value', { match: 'all', rules: [{ ...rule, op: 'exists' }] }, 'segment.rules[0].value'],
    ['no key', { match: 'all', rules: [{ type: 'detail', op: 'exists' }] }, 'segment.rules[0].key'],
    ['a bad consent status', { match: 'all', rules: [{ type: 'consent', purpose: 'p', status: 'maybe' }] }, 'segment.rules[0].status'],
    ['consent without purpose', { match: 'all', rules: [{ type: 'consent' }] }, 'segment.rules[0].purpose'],
  ])('refuses %s', (_what, segment, param) => {
    expect(failure(() => parseSegment(segment))).toMatchObject({ code: 'VALIDATION_ERROR', param });
  });
});

describe('statusOnCreate', () => {
  it('follows the spec table', () => {
    expect(statusOnCreate(true, null)).toBe('draft');
    expect(statusOnCreate(false, null)).toBe('published');
    expect(statusOnCreate(false, NOW)).toBe('scheduled');
    expect(failure(() => statusOnCreate(true, NOW))).toMatchObject({ param: 'status' });
  });
});
