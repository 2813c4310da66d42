import type { CompiledPattern } from './patterns';

/**
 * Runs a few hundred lexicon patterns over one canonical text without
 * scanning the text once per pattern. Each pattern's regex opens with
 * `(?<![a-z0-9])` and then a literal word (patterns.ts), so a match can only
 * start where a word starts with one of the pattern's anchors. One pass over
 * the words walks each word down a trie of the anchors (no substring is cut);
 * only the patterns met on the way are tried, with their sticky regex, at
 * that word. Everything else is skipped without touching the regex engine.
 *
 * The answers are exactly those of a global regex scan: offsets are tried in
 * ascending order and an offset inside the previous match is skipped, which
 * is how `matchAll` walks the text (non-overlapping, leftmost first).
 */
interface TrieNode {
  readonly next: Map<number, TrieNode>;
  /** Patterns having the path to this node as an anchor. */
  readonly ids: number[];
}

export class PatternIndex {
  private readonly root: TrieNode = { next: new Map(), ids: [] };

  constructor(patterns: readonly CompiledPattern[]) {
    for (const pattern of patterns) {
      for (const anchor of new Set(pattern.anchors ?? [])) {
        let node = this.root;
        for (let i = 0; i < anchor.length; i += 1) {
          const code = anchor.charCodeAt(i);
          let child = node.next.get(code);
          if (child === undefined) node.next.set(code, (child = { next: new Map(), ids: [] }));
          node = child;
        }
        node.ids.push(pattern.id);
      }
    }
  }

  /** Finds where each indexed pattern could start in `canonical`. */
  scan(canonical: string): PatternScan {
    const candidates = new Map<number, number[]>();
    let start = -1;
    for (let i = 0; i <= canonical.length; i += 1) {
      if (i < canonical.length && isWordChar(canonical.charCodeAt(i))) {
        if (start < 0) start = i;
        continue;
      }
      if (start < 0) continue;
      let node = this.root;
      for (let k = start; k < i; k += 1) {
        const child = node.next.get(canonical.charCodeAt(k));
        if (child === undefined) break;
        node = child;
        for (const id of node.ids) {
          const offsets = candidates.get(id);
          if (offsets === undefined) candidates.set(id, [start]);
          // Two anchors of one pattern can both prefix this word ("crash*", "crashes").
          else if (offsets[offsets.length - 1] !== start) offsets.push(start);
        }
      }
      start = -1;
    }
    return new PatternScan(canonical, candidates);
  }
}

function isWordChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/** The patterns' matches in one text; see PatternIndex. */
export class PatternScan {
  constructor(
    private readonly canonical: string,
    private readonly candidates: ReadonlyMap<number, readonly number[]>,
  ) {}

  /** Start offsets of every match, as a global regex scan reports them. */
  offsets(pattern: CompiledPattern): number[] {
    if (pattern.anchors === null) return Array.from(this.canonical.matchAll(pattern.regex), (match) => match.index);
    const candidates = this.candidates.get(pattern.id);
    if (candidates === undefined) return [];
    const offsets: number[] = [];
    const { sticky } = pattern;
    let resumeAt = 0;
    for (const offset of candidates) {
      if (offset < resumeAt) continue;
      sticky.lastIndex = offset;
      const match = sticky.exec(this.canonical);
      if (match === null) continue;
      offsets.push(offset);
      resumeAt = offset + Math.max(1, match[0].length);
    }
    return offsets;
  }

  /** True when the pattern occurs anywhere. */
  has(pattern: CompiledPattern): boolean {
    if (pattern.anchors === null) return this.canonical.search(pattern.regex) !== -1;
    const candidates = this.candidates.get(pattern.id);
    if (candidates === undefined) return false;
    const { sticky } = pattern;
    for (const offset of candidates) {
      sticky.lastIndex = offset;
      if (sticky.test(this.canonical)) return true;
    }
    return false;
  }
}
