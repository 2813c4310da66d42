import { sync as parseCommit, type Commit, type Options } from 'conventional-commits-parser';

/**
 * Sorts commit messages into the sections of a changelog draft (spec: Endpoints → Changelog →
 * Drafts). Pure: no clock, no database. The conventional-commit grammar is read by
 * conventional-commits-parser; the small regexes here only recognise what that grammar does not
 * describe (merges, reverts, version bumps, a leading commit hash).
 *
 * A commit string is a subject line or a whole message (subject, body, footers). Its first line may
 * start with a commit hash, as `git log --format='%H%x09%s'` (tab) or `git log --oneline` (space)
 * write it; with a space the hash must hold a digit, so a subject such as "defaced page" is not
 * mistaken for one. The hash is kept as its first 7 characters.
 *
 * Rules, in order:
 * 1. Merges (`Merge branch …`, `Merge pull request …`, `Merged PR …`) → skipped as `merges`.
 * 2. Reverts (`Revert "…"`, `revert: …`) → skipped as `reverts`.
 * 3. Version bumps (`1.2.3`, `v1.2.3`, `chore(release): …`, `release: …`, `Release 1.2.3`,
 *    `Bump version …`, `Version 1.2.3`) → skipped as `version_bumps`.
 * 4. Breaking (`!` before the colon, or a `BREAKING CHANGE:` / `BREAKING-CHANGE:` footer) →
 *    Breaking changes, whatever the type: a breaking `chore!` or `build!` still changes something
 *    readers depend on, and a non-conventional subject with that footer counts too.
 * 5. Housekeeping types (`chore`, `ci`, `build`, `test`, `style`, `docs`) and dependency bumps
 *    (`Bump lodash from 1.0.0 to 1.0.1`, as Dependabot writes them) → skipped as `housekeeping`.
 * 6. `security`, or `fix` with a `security` scope (`fix(security): …`) → Security.
 * 7. `feat` → New; `perf`, `refactor` → Improved; `fix` → Fixed.
 * 8. Anything else (unknown types, non-conventional subjects) → Other changes.
 * Types are matched case-insensitively (`Feat:` is `feat`).
 */

export const DRAFT_SECTIONS = ['breaking', 'security', 'new', 'improved', 'fixed', 'other'] as const;
export type DraftSectionKey = (typeof DRAFT_SECTIONS)[number];

/** Section titles, in the order the draft shows them: what readers must act on comes first. */
export const SECTION_TITLES: Record<DraftSectionKey, string> = {
  breaking: 'Breaking changes',
  security: 'Security',
  new: 'New',
  improved: 'Improved',
  fixed: 'Fixed',
  other: 'Other changes',
};

export interface DraftItem {
  /** The description after `type(scope): `, or the whole subject line of a non-conventional commit. */
  subject: string;
  scope: string | null;
  /** The conventional type as written, lower-cased; null for a non-conventional subject. */
  type: string | null;
  breaking: boolean;
  /** The text of a BREAKING CHANGE footer, whitespace collapsed; null when there is none. */
  note: string | null;
  /** The first 7 characters of the hash the line started with, if any. */
  hash?: string;
}

export interface SkippedCounts {
  total: number;
  housekeeping: number;
  merges: number;
  reverts: number;
  version_bumps: number;
}

export interface SortedCommits {
  sections: { key: DraftSectionKey; title: string; items: DraftItem[] }[];
  skipped: SkippedCounts;
}

type SkipKind = Exclude<keyof SkippedCounts, 'total'>;
type Verdict = { skip: SkipKind } | { section: DraftSectionKey; item: DraftItem };

const HOUSEKEEPING_TYPES = new Set(['chore', 'ci', 'build', 'test', 'tests', 'style', 'docs']);
const SECTION_OF_TYPE: Record<string, DraftSectionKey> = {
  feat: 'new',
  perf: 'improved',
  refactor: 'improved',
  fix: 'fixed',
  security: 'security',
};

// The parser's grammar, widened to read the `!` marker; scopes hold no parentheses, so
// "feat(a): use (b): c" has scope "a" and subject "use (b): c".
const PARSER_OPTIONS: Options = {
  headerPattern: /^(\w*)(?:\(([^()\r\n]*)\))?(!)?: (.*)$/,
  headerCorrespondence: ['type', 'scope', 'breaking', 'subject'],
  breakingHeaderPattern: /^(\w*)(?:\(([^()\r\n]*)\))?!: (.*)$/,
  noteKeywords: ['BREAKING CHANGE', 'BREAKING-CHANGE'],
  // Reverts and merges are recognised below, on the subject alone (`git log --format=%s` has no body).
  revertPattern: null,
  mergePattern: null,
};

const HASH_PREFIX = /^([0-9a-f]{7,40})\t(.*)$|^(?=[0-9a-f]*[0-9])([0-9a-f]{7,40}) (.*)$/i;
const MERGE = /^Merged? (branch|pull request|remote-tracking branch|tag|commit|PR|in|changes) /i;
const REVERT = /^Revert\b/;
const VERSION = String.raw`v?\d+\.\d+(\.\d+)?([-+][0-9A-Za-z.+-]*)?`;
const BARE_VERSION = new RegExp(`^${VERSION}$`);
const VERSION_BUMP = new RegExp(`^(release|version|bump(ed)? version( to)?|bump to|prepare release)\\b[\\s:]*${VERSION}\\b`, 'i');
const VERSION_BUMP_WORDS = /^bump(ed)? version\b/i;
const DEPENDENCY_BUMP = /^Bump \S+ from \S+ to \S+/;

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Splits a leading commit hash off the first line. */
export function splitHash(message: string): { hash?: string; message: string } {
  const newline = message.indexOf('\n');
  const first = newline === -1 ? message : message.slice(0, newline);
  const match = HASH_PREFIX.exec(first);
  if (!match) return { message };
  const hash = (match[1] ?? match[3]).slice(0, 7).toLowerCase();
  const subject = match[2] ?? match[4];
  return { hash, message: subject + (newline === -1 ? '' : message.slice(newline)) };
}

function isVersionBump(subject: string, type: string | null, scope: string | null): boolean {
  if (type === 'release' || (type === 'chore' && scope?.toLowerCase() === 'release')) return true;
  return BARE_VERSION.test(subject) || VERSION_BUMP.test(subject) || VERSION_BUMP_WORDS.test(subject);
}

function hasScope(scope: string | null, wanted: string): boolean {
  return (scope ?? '').split(/[,/\s]+/).some((part) => part.toLowerCase() === wanted);
}

function breakingNote(parsed: Commit): string | null {
  const note = parsed.notes.find((candidate) => /^BREAKING[ -]CHANGE$/i.test(candidate.title));
  if (!note) return null;
  const text = collapse(note.text);
  // For a `!` commit the parser repeats the subject as the note; that adds nothing.
  return text && text !== collapse(parsed.subject ?? '') ? text : null;
}

/** Where one commit message goes. `message` must hold some non-blank text. */
export function classifyCommit(raw: string): Verdict {
  const { hash, message } = splitHash(raw.trim());
  const parsed = parseCommit(message, PARSER_OPTIONS);
  const header = collapse(parsed.header ?? '');
  const type = parsed.type ? parsed.type.toLowerCase() : null;
  const scope = parsed.scope ? collapse(parsed.scope) || null : null;
  if (MERGE.test(header)) return { skip: 'merges' };
  if (REVERT.test(header) || type === 'revert') return { skip: 'reverts' };
  if (isVersionBump(header, type, scope)) return { skip: 'version_bumps' };

  const note = breakingNote(parsed);
  const breaking = parsed.breaking === '!' || note !== null || parsed.notes.length > 0;
  const conventional = type !== null && parsed.subject !== null && parsed.subject !== undefined;
  const item: DraftItem = {
    subject: conventional ? collapse(parsed.subject ?? '') : header,
    scope: conventional ? scope : null,
    type: conventional ? type : null,
    breaking,
    note,
    ...(hash ? { hash } : {}),
  };
  if (breaking) return { section: 'breaking', item };
  if (conventional && HOUSEKEEPING_TYPES.has(type)) return { skip: 'housekeeping' };
  if (DEPENDENCY_BUMP.test(header)) return { skip: 'housekeeping' };
  if (conventional && type === 'fix' && hasScope(scope, 'security')) return { section: 'security', item };
  return { section: (conventional && SECTION_OF_TYPE[type]) || 'other', item };
}

/** Sorts every commit; sections come in DRAFT_SECTIONS order, empty ones left out, commits in input order. */
export function sortCommits(commits: readonly string[]): SortedCommits {
  const buckets = new Map<DraftSectionKey, DraftItem[]>(DRAFT_SECTIONS.map((key) => [key, []]));
  const skipped: SkippedCounts = { total: 0, housekeeping: 0, merges: 0, reverts: 0, version_bumps: 0 };
  for (const commit of commits) {
    const verdict = classifyCommit(commit);
    if ('skip' in verdict) {
      skipped[verdict.skip] += 1;
      skipped.total += 1;
    } else {
      buckets.get(verdict.section)?.push(verdict.item);
    }
  }
  const sections = DRAFT_SECTIONS.filter((key) => (buckets.get(key) ?? []).length > 0).map((key) => ({
    key,
    title: SECTION_TITLES[key],
    items: buckets.get(key) ?? [],
  }));
  return { sections, skipped };
}
