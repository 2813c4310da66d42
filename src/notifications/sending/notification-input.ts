import { ApiError } from '../../common/errors/api-error';

/** Spec: Limits → Notification fields. */
export const NOTIFICATION_LIMITS = {
  userIdMax: 256,
  titleMax: 200,
  bodyMax: 2000,
  urlMax: 2048,
  actionLabelMax: 40,
  actionsMax: 2,
  dataBytesMax: 2048,
  sendAheadDaysMax: 60,
  reactionsMax: 5,
  groupListMax: 1000,
  groupPeopleMax: 10_000,
  unreachableSampleMax: 20,
} as const;

/** "Short lower-case name": what a bell filter or a settings key can safely be. */
export const CATEGORY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

const DAY_MS = 24 * 60 * 60 * 1000;

/** An http(s) URL with a host, or a site path (`/pricing`; not `//host`, which names another site). */
export function isLinkOrSitePath(url: string): boolean {
  // Control characters and spaces would let a browser read the path as something else.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(url)) return false;
  if (url.startsWith('/')) return !/^\/[/\\]/.test(url);
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.hostname.length > 0;
  } catch {
    return false;
  }
}

/** Why `value` is not an `action_url` (http(s) URL or site path, not `//host`), or null. */
export function linkProblem(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' || value.length === 0) return 'must be a non-empty string';
  if (value.length > NOTIFICATION_LIMITS.urlMax) return `must be at most ${NOTIFICATION_LIMITS.urlMax} characters`;
  return isLinkOrSitePath(value) ? null : 'must be an http(s) URL or a site path starting with "/" (other schemes are refused)';
}

/** Why `value` is not a `data` object of at most 2048 bytes (UTF-8 of its JSON), or null. */
export function dataProblem(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object' || Array.isArray(value)) return 'must be a JSON object';
  const bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  return bytes > NOTIFICATION_LIMITS.dataBytesMax
    ? `must be at most ${NOTIFICATION_LIMITS.dataBytesMax} bytes as JSON (got ${bytes})`
    : null;
}

/** The shape of `reactions` (membership in the project's set is checked against the database). */
export function reactionsInputProblem(value: unknown): string | null {
  if (value === undefined || typeof value === 'boolean') return null;
  if (!Array.isArray(value)) return 'must be true, false or a list of reaction names';
  if (value.length > NOTIFICATION_LIMITS.reactionsMax) return `must hold at most ${NOTIFICATION_LIMITS.reactionsMax} names`;
  if (value.some((name) => typeof name !== 'string')) return 'must hold reaction names (strings)';
  if (new Set(value).size !== value.length) return 'must not repeat a name';
  return null;
}

function invalid(param: string, message: string, remediation: string): ApiError {
  return new ApiError('VALIDATION_ERROR', message, { param, remediation });
}

/** Who a send goes to. */
export type SendTarget = { kind: 'user'; userId: string } | { kind: 'broadcast' } | { kind: 'group' };

interface TargetInput {
  user_id?: string;
  audience?: 'user' | 'all';
  user_ids?: unknown;
  emails?: unknown;
  contact_ids?: unknown;
  contacts?: unknown;
}

export const GROUP_FIELDS = ['user_ids', 'emails', 'contact_ids', 'contacts'] as const;

/**
 * `user_id` xor `audience: "all"` (spec: both or neither is VALIDATION_ERROR), unless a group
 * field is given: then neither may be, since a group is its own target.
 */
export function targetOf(input: TargetInput): SendTarget {
  const group = GROUP_FIELDS.find((field) => input[field] !== undefined && input[field] !== null);
  if (group) {
    if (input.user_id !== undefined) {
      throw invalid(
        'user_id',
        `user_id cannot be combined with ${group}: a send goes to one user, a group or everyone.`,
        `Drop user_id, or send without ${group}.`,
      );
    }
    if (input.audience === 'all') {
      throw invalid('audience', `audience "all" cannot be combined with ${group}.`, `Drop audience, or send without ${group}.`);
    }
    return { kind: 'group' };
  }
  if (input.audience === 'all') {
    if (input.user_id !== undefined) {
      throw invalid(
        'audience',
        'Send either user_id or audience "all", not both.',
        'Drop user_id to send to everyone, or drop audience to send to one user.',
      );
    }
    return { kind: 'broadcast' };
  }
  if (input.user_id === undefined) {
    throw invalid(
      'user_id',
      'user_id is required unless audience is "all" or a group field is given.',
      'Name the user with user_id, send audience "all", or a group (user_ids, emails, contact_ids, contacts).',
    );
  }
  return { kind: 'user', userId: input.user_id };
}

/** When the notification shows: `send_at`, or now when it is absent or past; refused beyond 60 days. */
export function visibleAtOf(sendAt: string | undefined, now: Date): Date {
  if (sendAt === undefined) return now;
  const at = new Date(sendAt);
  if (at.getTime() - now.getTime() > NOTIFICATION_LIMITS.sendAheadDaysMax * DAY_MS) {
    throw invalid(
      'send_at',
      `send_at must be at most ${NOTIFICATION_LIMITS.sendAheadDaysMax} days ahead.`,
      'Pick an earlier time, or schedule it later.',
    );
  }
  return at.getTime() < now.getTime() ? now : at;
}

/** The reaction names a notification takes, from `reactions` and the project's reaction set; null: none. */
export function reactionsOf(input: boolean | string[] | undefined, reactionSet: readonly string[]): string[] | null {
  if (input === undefined || input === false) return null;
  if (input === true) return [...reactionSet];
  if (input.length === 0) return null;
  const unknown = input.findIndex((name) => !reactionSet.includes(name));
  if (unknown >= 0) {
    throw invalid(
      `reactions.${unknown}`,
      `"${input[unknown]}" is not in the project's reaction set (${reactionSet.join(', ')}).`,
      'Use names from the changelog reaction set, or send true for the whole set.',
    );
  }
  return [...input];
}

/** The UTC calendar month of `at`, "2026-11": the quota's period. */
export function usageMonthOf(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** A share of `reached`, to three decimals; null while nobody has been reached. */
export function rateOf(count: number, reached: number): number | null {
  return reached === 0 ? null : Math.round((count / reached) * 1000) / 1000;
}
