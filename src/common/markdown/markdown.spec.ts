import { findUnsafeMarkdownLinks, unsafeUrlReason } from './markdown-links';
import { markdownExcerpt, markdownToText, renderMarkdown } from './markdown-render';

const urls = (markdown: string) => findUnsafeMarkdownLinks(markdown).map((problem) => `${problem.kind} ${problem.url}`);

describe('findUnsafeMarkdownLinks', () => {
  it('accepts http(s), mailto, paths, relative links, anchors and https images', () => {
    const body = [
      '[site](https://example.com) [plain](http://example.com) [mail](mailto:team@example.com)',
      '[docs](/docs/start) [guide](./guide) [page](guide.html) [top](#usage)',
      '![shot](https://cdn.example.com/a.png) <https://example.com/auto>',
      '[ref][r]',
      '',
      '[r]: https://example.com/ref',
    ].join('\n');
    expect(findUnsafeMarkdownLinks(body)).toEqual([]);
  });

  it.each([
    ['[x](javascript:alert(1))', 'link javascript:alert(1)'],
    ['[x](JaVaScRiPt:alert(1))', 'link JaVaScRiPt:alert(1)'],
    ['[x](vbscript:msgbox)', 'link vbscript:msgbox'],
    ['[x](file:///etc/passwd)', 'link file:///etc/passwd'],
    ['[x](data:text/html;base64,PHNjcmlwdD4=)', 'link data:text/html;base64,PHNjcmlwdD4='],
    ['[x](//evil.example)', 'link //evil.example'],
    ['<javascript:alert(1)>', 'link javascript:alert(1)'],
    ['![x](http://cdn.example.com/a.png)', 'image http://cdn.example.com/a.png'],
    ['![x](data:image/png;base64,AAAA)', 'image data:image/png;base64,AAAA'],
    ['![x](/local.png)', 'image /local.png'],
  ])('refuses %s', (markdown, expected) => {
    expect(urls(markdown)).toEqual([expected]);
  });

  it('reads schemes as browsers do: entities, percent-encoding and control characters do not hide them', () => {
    expect(urls('[x](&#106;avascript:alert(1))')).toHaveLength(1);
    expect(urls('[x](java%73cript:alert(1))')).toHaveLength(1);
    expect(unsafeUrlReason('java\tscript:alert(1)', 'link')).not.toBeNull();
    expect(unsafeUrlReason(' javascript:alert(1)', 'link')).not.toBeNull();
  });

  it('finds bad links in reference definitions, used or not', () => {
    expect(urls('[click][evil]\n\n[evil]: javascript:alert(1)')).toContain('link javascript:alert(1)');
    expect(urls('Nothing uses it.\n\n[unused]: vbscript:x')).toEqual(['link vbscript:x']);
  });

  it('finds bad links and images inside raw HTML', () => {
    expect(urls('<a href="javascript:alert(1)">x</a>')).toEqual(['link javascript:alert(1)']);
    expect(urls('<div>\n<img src="data:image/png;base64,AAAA">\n</div>')).toEqual(['image data:image/png;base64,AAAA']);
    expect(urls('Text <img srcset="https://a.example/1.png 1x, http://a.example/2.png 2x"> more')).toEqual([
      'image http://a.example/2.png',
    ]);
    expect(urls('<a href="&#x6A;avascript:alert(1)">x</a>')).toHaveLength(1);
  });
});

describe('renderMarkdown', () => {
  it('renders markdown and keeps safe links with rel attributes', () => {
    const html = renderMarkdown('# Title\n\n**bold** [site](https://example.com) ![a](https://cdn.example.com/a.png)').html;
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<a href="https://example.com" rel="nofollow noopener noreferrer">site</a>');
    expect(html).toContain('<img src="https://cdn.example.com/a.png" alt="a" />');
  });

  it('lets no script, handler, javascript: link or data: image through, however it was written', () => {
    const html = renderMarkdown(
      [
        '<script>alert(1)</script>',
        '<img src=x onerror="alert(1)">',
        '[a](javascript:alert(1)) [b][ref] ![c](data:image/png;base64,AAAA) ![d](http://plain.example/a.png)',
        '',
        '[ref]: javascript:alert(2)',
      ].join('\n'),
    ).html;
    // Typed tags come out as text; refused links lose their href, refused images disappear.
    expect(html).not.toMatch(/<script|<img src=x|href="javascript:|href="data:|src="data:|src="http:/i);
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<img');
  });
});

describe('markdownToText and markdownExcerpt', () => {
  it('strips markup and decodes what the text means', () => {
    expect(markdownToText('# New\n\n- **Fast** export & import\n- <b>not bold</b>')).toBe('New\n\nFast export & import\n\n<b>not bold</b>');
  });

  it('cuts at a word with an ellipsis', () => {
    const excerpt = markdownExcerpt('word '.repeat(100), 30);
    expect(excerpt.length).toBeLessThanOrEqual(30);
    expect(excerpt.endsWith('word…')).toBe(true);
  });
});
