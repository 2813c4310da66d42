import { charLengthProblem } from '../../common/validation/char-length';

/**
 * Input limits of a draft (the spec leaves them open). 1000 commits is a long release; 10000
 * characters holds any real commit message with its body and footers. The 1 MB JSON body limit
 * still applies, so a request near both limits answers PAYLOAD_TOO_LARGE first. `version` follows
 * the entry's limit (spec: Limits, version 64).
 */
export const DRAFT_LIMITS = {
  commitsMin: 1,
  commitsMax: 1000,
  commitMin: 1,
  commitMax: 10_000,
  versionMax: 64,
  /** The entry body's limit (spec: Changelog entry, body_markdown 1 to 50000). */
  bodyMax: 50_000,
} as const;

interface InputProblem {
  param: string;
  message: string;
}

/**
 * The first commit that is not a usable message, named by its index (`commits.3`, the dotted path
 * every other VALIDATION_ERROR uses for array items). A commit of only whitespace says nothing.
 */
export function commitsProblem(commits: readonly unknown[]): InputProblem | null {
  for (const [index, commit] of commits.entries()) {
    const param = `commits.${index}`;
    const problem = charLengthProblem(commit, DRAFT_LIMITS.commitMin, DRAFT_LIMITS.commitMax);
    if (problem) return { param, message: `${param} ${problem}.` };
    if ((commit as string).trim() === '') return { param, message: `${param} must contain a commit message, not only whitespace.` };
  }
  return null;
}
