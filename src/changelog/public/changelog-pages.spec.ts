import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeHtml } from '../../common/html/html-page';
import { renderMarkdown } from '../../common/markdown/markdown-render';
import { strongEtag } from './cacheable-reply';
import { safeCoverUrl, safeCtaUrl } from './changelog-pages';
import { containsPattern } from '../shared/public-set';

describe('hosted changelog helpers', () => {
  it('show a cover image only from https', () => {
    expect(safeCoverUrl('https://img.example/a.png')).toBe('https://img.example/a.png');
    for (const url of ['http://img.example/a.png', 'javascript:alert(1)', 'data:image/png;base64,AA', '//img.example/a.png', null]) {
      expect(safeCoverUrl(url)).toBeNull();
    }
  });

  it('show a button only for http(s) URLs and site paths', () => {
    for (const url of ['https://app.example/x', 'http://app.example/x', '/pricing', '/docs?x=1#y']) expect(safeCtaUrl(url)).toBe(url);
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,x',
      '//evil.example',
      '/\\evil.example',
      'pricing',
      'https://a b',
      null,
    ]) {
      expect(safeCtaUrl(url)).toBeNull();
    }
  });

  it('let only sanitized markdown through the escape function', () => {
    expect(escapeHtml('<b>"x" & \'y\'</b>')).toBe('&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/b&gt;');
    expect(escapeHtml(renderMarkdown('**x**'))).toBe('<p><strong>x</strong></p>\n');
    expect(escapeHtml({ toString: () => '<b>' })).toBe('&lt;b&gt;');
  });

  it('match search text literally', () => {
    expect(containsPattern('100%_\\x')).toBe('%100\\%\\_\\\\x%');
  });

  it('tag a body by its bytes', () => {
    expect(strongEtag('a')).toBe(strongEtag('a'));
    expect(strongEtag('a')).not.toBe(strongEtag('b'));
    expect(strongEtag('a')).toMatch(/^"[\w-]{43}"$/);
  });

  it('never use the unescaped Mustache forms', () => {
    for (const file of ['changelog-pages.ts', 'changelog-page-layout.ts']) {
      expect(readFileSync(join(__dirname, file), 'utf8')).not.toMatch(/\{\{\{|\{\{&/);
    }
  });
});
