import { sentValues } from './entry-parsing';
import { apiFailureOf } from '../../../test/support/api-failure';

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
    expect(apiFailureOf(() => sentValues({ title: '   ' }))).toMatchObject({ code: 'VALIDATION_ERROR', param: 'title' });
    expect(apiFailureOf(() => sentValues({ body_markdown: ' \n ' }))).toMatchObject({ param: 'body_markdown' });
    expect(apiFailureOf(() => sentValues({ title: null as unknown as string }))).toMatchObject({ param: 'title' });
    expect(apiFailureOf(() => sentValues({ pinned: null as unknown as boolean }))).toMatchObject({ param: 'pinned' });
    expect(sentValues({ version: null, cta_url: null })).toEqual({ version: null, ctaUrl: null });
  });

  it('collapses duplicate label slugs', () => {
    expect(sentValues({ labels: ['a', 'b', 'a'] })).toEqual({ labels: ['a', 'b'] });
  });
});
