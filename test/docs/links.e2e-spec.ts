import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import MarkdownIt from 'markdown-it';

/**
 * Every relative link of the README, the changelog and the guides under docs/ leads somewhere:
 * the file exists, and a `#fragment` names a heading of the target as GitHub anchors it. Links are
 * read with markdown-it (the parser the service renders with), so links inside code are not links,
 * and reference-style links count as well.
 */
type Token = MarkdownIt.Token;

const ROOT = join(__dirname, '..', '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const FILES = [join(ROOT, 'README.md'), join(ROOT, 'CHANGELOG.md'), ...markdownFiles(join(ROOT, 'docs'))];

const md = new MarkdownIt();

/**
 * GitHub's heading anchors (the rules of github-slugger): the heading's text, lower-cased, without
 * anything but letters, marks, digits, connector punctuation (`_`), hyphens and spaces, each space
 * a hyphen; a repeated anchor gets `-1`, `-2`, … in order.
 */
function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The text a heading shows: its words and inline code, without markup. */
function plainText(inline: Token): string {
  return (inline.children ?? []).map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : '')).join('');
}

interface Link {
  file: string;
  line: number;
  href: string;
}

interface Parsed {
  anchors: Set<string>;
  links: Link[];
}

const parsed = new Map<string, Parsed>();

function parse(file: string): Parsed {
  const known = parsed.get(file);
  if (known) return known;
  const tokens = md.parse(readFileSync(file, 'utf8'), {});
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const links: Link[] = [];
  tokens.forEach((token, index) => {
    if (token.type === 'heading_open') {
      const base = slugOf(plainText(tokens[index + 1]));
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    if (token.type !== 'inline') return;
    for (const child of token.children ?? []) {
      const href = child.type === 'link_open' ? child.attrGet('href') : child.type === 'image' ? child.attrGet('src') : null;
      if (href !== null) links.push({ file, line: (token.map?.[0] ?? 0) + 1, href: String(href) });
    }
  });
  const result = { anchors, links };
  parsed.set(file, result);
  return result;
}

/** What is wrong with one link, or null when it leads somewhere. */
function problemOf(link: Link): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.href) || link.href.startsWith('//')) return null;
  const [path, fragment] = link.href.split('#', 2) as [string, string | undefined];
  const target = path === '' ? link.file : resolve(dirname(link.file), decodeURIComponent(path));
  if (!existsSync(target)) return `${relative(ROOT, target)} does not exist`;
  if (fragment === undefined || fragment === '') return null;
  if (!target.endsWith('.md')) return `#${fragment} points into ${relative(ROOT, target)}, which has no headings`;
  const anchor = decodeURIComponent(fragment).toLowerCase();
  return parse(target).anchors.has(anchor) ? null : `${relative(ROOT, target)} has no heading #${fragment}`;
}

describe('links in the documentation', () => {
  it('makes anchors as GitHub does', () => {
    expect(slugOf('Lost the demo keys?')).toBe('lost-the-demo-keys');
    expect(slugOf('"My MRR doesn\'t match Stripe"')).toBe('my-mrr-doesnt-match-stripe');
    expect(slugOf('Widget API (publishable key, any origin, per-IP browser limit)')).toBe(
      'widget-api-publishable-key-any-origin-per-ip-browser-limit',
    );
    expect(slugOf('TypeScript: openapi-typescript and openapi-fetch')).toBe('typescript-openapi-typescript-and-openapi-fetch');
    expect(slugOf('1. Back up')).toBe('1-back-up');
    expect(slugOf('Notifications → Identity verification')).toBe('notifications--identity-verification');
    expect(slugOf('attempt_log')).toBe('attempt_log');
  });

  it('reads the README and every guide', () => {
    const names = FILES.map((file) => relative(ROOT, file));
    expect(names).toEqual(expect.arrayContaining(['README.md', 'docs/operating.md', 'docs/architecture.md', 'docs/webhooks.md']));
    // The README links every guide, so a guide nobody can reach from it fails here too.
    const fromReadme = new Set(parse(join(ROOT, 'README.md')).links.map((link) => link.href.split('#')[0]));
    const unlinked = names.filter((name) => name.startsWith('docs/') && !fromReadme.has(name));
    expect(unlinked).toEqual([]);
  });

  it.each(FILES.map((file) => [relative(ROOT, file), file]))('%s: every relative link resolves', (_name, file) => {
    const problems = parse(file)
      .links.map((link) => {
        const problem = problemOf(link);
        return problem ? `${relative(ROOT, link.file)}:${link.line} (${link.href}): ${problem}` : null;
      })
      .filter((problem): problem is string => problem !== null);
    expect(problems).toEqual([]);
  });
});
