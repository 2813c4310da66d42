import type { EntryCategory } from '../entities/changelog-entry.entity';
import type { DraftItem, DraftSectionKey, SortedCommits } from './commit-sorter';

/**
 * The text of a draft built from sorted commits: title, markdown body and category. Pure.
 *
 * - Title: "Version 1.4.0" when a version is given (a leading "v" before a digit is dropped:
 *   "v1.4.0" reads "Version 1.4.0"), else "Release notes 2026-11-20" (the UTC date of "now").
 * - Body: one `## <section>` per non-empty section, a bullet per commit:
 *   `- **scope:** subject (`abc1234`)`; a breaking item's footer text follows after a dash.
 *   Commit text is escaped, so it always reads as plain text: a subject cannot open a link,
 *   an image, raw HTML, emphasis or code (see escapeMarkdownText).
 * - Category: `breaking` if anything breaks, else `security`, else `feature` if anything is new,
 *   else `improvement` if anything improved, else `fix` if anything was fixed, else (only Other
 *   changes, or nothing) `improvement`, the most neutral of the five.
 */

// Characters that can start markdown inline syntax in a one-line bullet: links and images (`[`),
// autolinks and raw HTML (`<`), entities (`&`), emphasis, code, strikethrough, and the escape itself.
// (`(` or `!` do nothing without a `[`; `#`, `-`, `+` only matter at the start of a line.)
const MARKDOWN_SPECIALS = /[\\`*_[\]<>&~]/g;

/** `text` as literal markdown text on one line: specials backslash-escaped, whitespace collapsed. */
export function escapeMarkdownText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(MARKDOWN_SPECIALS, (char) => `\\${char}`);
}

export function draftTitle(version: string | null | undefined, now: Date): string {
  if (version) return `Version ${version.replace(/^v(?=\d)/i, '')}`;
  return `Release notes ${now.toISOString().slice(0, 10)}`;
}

function bullet(item: DraftItem): string {
  const scope = item.scope ? `**${escapeMarkdownText(item.scope)}:** ` : '';
  const hash = item.hash ? ` (\`${item.hash}\`)` : '';
  const note = item.note ? ` — ${escapeMarkdownText(item.note)}` : '';
  return `- ${scope}${escapeMarkdownText(item.subject)}${hash}${note}`;
}

export function draftBody(sorted: SortedCommits): string {
  return sorted.sections.map((section) => [`## ${section.title}`, '', ...section.items.map(bullet)].join('\n')).join('\n\n');
}

const CATEGORY_ORDER: [DraftSectionKey, EntryCategory][] = [
  ['breaking', 'breaking'],
  ['security', 'security'],
  ['new', 'feature'],
  ['improved', 'improvement'],
  ['fixed', 'fix'],
];

export function draftCategory(sorted: SortedCommits): EntryCategory {
  const present = new Set(sorted.sections.map((section) => section.key));
  return CATEGORY_ORDER.find(([key]) => present.has(key))?.[1] ?? 'improvement';
}
