import { findUnsafeMarkdownLinks } from '../../common/markdown/markdown-links';
import { markdownToText, renderMarkdown } from '../../common/markdown/markdown-render';
import { sortCommits } from './commit-sorter';
import { draftBody, draftCategory, draftTitle, escapeMarkdownText } from './draft-markdown';

const NOW = new Date('2026-11-20T23:30:00.000Z');

describe('draftTitle', () => {
  it('names the version, without a leading v', () => {
    expect(draftTitle('1.4.0', NOW)).toBe('Version 1.4.0');
    expect(draftTitle('v1.4.0', NOW)).toBe('Version 1.4.0');
    expect(draftTitle('vNext', NOW)).toBe('Version vNext');
  });

  it('is dated (UTC) without a version', () => {
    expect(draftTitle(undefined, NOW)).toBe('Release notes 2026-11-20');
    expect(draftTitle(null, NOW)).toBe('Release notes 2026-11-20');
  });
});

describe('draftBody', () => {
  it('writes one section per kind with bold scopes, hashes and breaking notes', () => {
    const body = draftBody(
      sortCommits([
        'a1b2c3d\tfeat(widget): add dark mode',
        'fix: stop double emails',
        'feat(api)!: drop v1',
        'refactor: split\n\nBREAKING CHANGE: the export moved to /v2/export',
      ]),
    );
    expect(body).toBe(
      [
        '## Breaking changes',
        '',
        '- **api:** drop v1',
        '- split — the export moved to /v2/export',
        '',
        '## New',
        '',
        '- **widget:** add dark mode (`a1b2c3d`)',
        '',
        '## Fixed',
        '',
        '- stop double emails',
      ].join('\n'),
    );
    expect(renderMarkdown(body).html).toContain('<li><strong>widget:</strong> add dark mode (<code>a1b2c3d</code>)</li>');
  });

  it('is empty when every commit was skipped', () => {
    expect(draftBody(sortCommits(['chore: x']))).toBe('');
  });

  it('keeps links, images, HTML and emphasis in commit text as plain text', () => {
    const hostile = [
      'feat: [click](javascript:alert(1))',
      'fix(*x*): ![img](data:image/png;base64,AAAA)',
      'Add <script>alert(1)</script> & <img src=x onerror=alert(1)>',
      'perf: <javascript:alert(1)> `code` ~~gone~~ _em_ \\[x](javascript:y)',
      'feat([evil](javascript:1)): reference [a]\n\n[a]: javascript:alert(1)',
      'fix: &#106;avascript entities [x][y]',
    ];
    const body = draftBody(sortCommits(hostile));
    expect(findUnsafeMarkdownLinks(body)).toEqual([]);
    const html = renderMarkdown(body).html;
    expect(html).not.toMatch(/<a |<img|<script|<code>code|<em>|<s>/);
    const text = markdownToText(body);
    expect(text).toContain('[click](javascript:alert(1))');
    expect(text).toContain('Add <script>alert(1)</script> & <img src=x onerror=alert(1)>');
    expect(text).toContain('&#106;avascript entities [x][y]');
  });
});

describe('escapeMarkdownText', () => {
  it('escapes inline specials and collapses whitespace', () => {
    expect(escapeMarkdownText('  a *b*\n[c]  <d> & `e` ~f~ \\ g_h ')).toBe('a \\*b\\* \\[c\\] \\<d\\> \\& \\`e\\` \\~f\\~ \\\\ g\\_h');
  });
});

describe('draftCategory', () => {
  it.each([
    [['feat: a', 'fix!: b', 'security: c'], 'breaking'],
    [['feat: a', 'fix(security): c'], 'security'],
    [['fix: a', 'feat: b', 'perf: c'], 'feature'],
    [['fix: a', 'perf: c'], 'improvement'],
    [['fix: a', 'Tweak b'], 'fix'],
    [['Tweak b'], 'improvement'],
    [['chore: x'], 'improvement'],
  ])('%j → %s', (commits, category) => {
    expect(draftCategory(sortCommits(commits))).toBe(category);
  });
});
