import { ApiError } from '../../common/errors/api-error';
import { findUnsafeMarkdownLinks, unsafeUrlReason } from '../../common/markdown/markdown-links';
import { codePointLength } from '../../common/validation/char-length';
import type { AnnouncementStyle, EntryAudience, EntryCategory, EntryStatus } from '../entities/changelog-entry.entity';
import { MAX_SEGMENT_RULES, type SegmentCondition, type SegmentRule } from '../shared/segment-rule';

/**
 * The field rules of a changelog entry (spec: Changelog entry input, Segment rule, Limits), as pure
 * functions over `EntryValues`: the DTOs check types and lengths, these check what spans fields
 * (the CTA pair, audience and segment), URLs, markdown links and times. Each failure is a
 * VALIDATION_ERROR whose `param` names the field as the client sent it.
 */
export const ENTRY_LIMITS = {
  titleMax: 200,
  bodyMax: 50_000,
  versionMax: 64,
  ctaLabelMax: 80,
  urlMax: 2048,
  labelsMax: 100,
  segmentKeyMax: 100,
  segmentValueMax: 256,
  segmentListMax: 100,
} as const;

export interface Announcement {
  style: AnnouncementStyle;
  until: Date;
}

/** Everything an owner can set on an entry, with the entity's names (labels as slugs). */
export interface EntryValues {
  title: string;
  bodyMarkdown: string;
  version: string | null;
  category: EntryCategory;
  scheduledAt: Date | null;
  coverImageUrl: string | null;
  ctaLabel: string | null;
  ctaUrl: string | null;
  labels: string[];
  audience: EntryAudience;
  segment: SegmentRule | null;
  pinned: boolean;
  expiresAt: Date | null;
  announcement: Announcement | null;
  notifySubscribers: boolean;
  notifyInApp: boolean;
  notifyChat: boolean;
}

export type EntryField = keyof EntryValues;

/** The wire name of each field, for `param`. */
export const WIRE_NAMES: Readonly<Record<EntryField, string>> = {
  title: 'title',
  bodyMarkdown: 'body_markdown',
  version: 'version',
  category: 'category',
  scheduledAt: 'scheduled_at',
  coverImageUrl: 'cover_image_url',
  ctaLabel: 'cta_label',
  ctaUrl: 'cta_url',
  labels: 'labels',
  audience: 'audience',
  segment: 'segment',
  pinned: 'pinned',
  expiresAt: 'expires_at',
  announcement: 'announcement',
  notifySubscribers: 'notify_subscribers',
  notifyInApp: 'notify_in_app',
  notifyChat: 'notify_chat',
};

/** Spec: a published entry may still change how it is shown, nothing else. */
export const EDITABLE_WHEN_PUBLISHED: ReadonlySet<EntryField> = new Set<EntryField>(['labels', 'pinned', 'expiresAt', 'announcement']);

/** Fields that may be sent as null (to clear them); the rest must have a value when sent. */
const NULLABLE: ReadonlySet<EntryField> = new Set<EntryField>([
  'version',
  'scheduledAt',
  'coverImageUrl',
  'ctaLabel',
  'ctaUrl',
  'segment',
  'expiresAt',
  'announcement',
]);

/** The entry fields of a request body (create or update), as the client sent them. */
export interface EntryFieldsInput {
  title?: string;
  body_markdown?: string;
  version?: string | null;
  category?: EntryCategory;
  scheduled_at?: string | null;
  cover_image_url?: string | null;
  cta_label?: string | null;
  cta_url?: string | null;
  labels?: string[];
  audience?: EntryAudience;
  segment?: object | null;
  pinned?: boolean;
  expires_at?: string | null;
  announcement?: { style: AnnouncementStyle; until: string } | null;
  notify_subscribers?: boolean;
  notify_in_app?: boolean;
  notify_chat?: boolean;
}

export function invalid(param: string, message: string, remediation?: string): ApiError {
  return new ApiError('VALIDATION_ERROR', message, { param, remediation });
}

/** The defaults of a new entry (spec: audience public, notify_chat true, the other switches off). */
export const NEW_ENTRY_DEFAULTS: Omit<EntryValues, 'title' | 'bodyMarkdown' | 'category'> = {
  version: null,
  scheduledAt: null,
  coverImageUrl: null,
  ctaLabel: null,
  ctaUrl: null,
  labels: [],
  audience: 'public',
  segment: null,
  pinned: false,
  expiresAt: null,
  announcement: null,
  notifySubscribers: false,
  notifyInApp: false,
  notifyChat: true,
};

/** One sent field, parsed to its stored form (title and version trimmed, times as dates). */
function parseField(field: EntryField, raw: unknown): EntryValues[EntryField] {
  const param = WIRE_NAMES[field];
  if (raw === null) {
    if (!NULLABLE.has(field)) throw invalid(param, `${param} cannot be null.`, `Send a value for ${param}, or leave it out.`);
    return null;
  }
  switch (field) {
    case 'title':
    case 'version': {
      const text = (raw as string).trim();
      if (text.length === 0) throw invalid(param, `${param} must not be blank.`);
      return text;
    }
    case 'bodyMarkdown':
      if ((raw as string).trim().length === 0) throw invalid(param, 'body_markdown must not be blank.');
      return raw as string;
    case 'scheduledAt':
    case 'expiresAt':
      return new Date(raw as string);
    case 'labels':
      return [...new Set(raw as string[])];
    case 'segment':
      return parseSegment(raw);
    case 'announcement': {
      const { style, until } = raw as { style: AnnouncementStyle; until: string };
      return { style, until: new Date(until) };
    }
    default:
      return raw as EntryValues[EntryField];
  }
}

const INPUT_KEYS = Object.entries(WIRE_NAMES) as [EntryField, string][];

/** The fields present in `input` (null included), parsed. */
export function sentValues(input: EntryFieldsInput): Partial<EntryValues> {
  const sent: Partial<Record<EntryField, unknown>> = {};
  for (const [field, wire] of INPUT_KEYS) {
    const raw = (input as Record<string, unknown>)[wire];
    if (raw !== undefined) sent[field] = parseField(field, raw);
  }
  return sent as Partial<EntryValues>;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') return canonicalJson(a) === canonicalJson(b);
  return a === b;
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item && typeof item === 'object' && !Array.isArray(item) && !(item instanceof Date)) {
      return Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)));
    }
    return item;
  });
}

/**
 * `current` with the sent fields applied, and the fields that really changed: a field sent with
 * its current value is not a change (so a client may send a whole entry back). Moving the audience
 * away from `segment` drops the segment.
 */
export function mergeValues(current: EntryValues, sent: Partial<EntryValues>): { next: EntryValues; changed: EntryField[] } {
  const next: EntryValues = { ...current, ...sent };
  if (next.audience !== 'segment' && sent.segment === undefined) next.segment = null;
  const changed = (Object.keys(next) as EntryField[]).filter((field) => !sameValue(current[field], next[field]));
  return { next, changed };
}

/** The first field a published entry may not change, or null. */
export function fixedFieldOfPublished(changed: readonly EntryField[]): EntryField | null {
  return changed.find((field) => !EDITABLE_WHEN_PUBLISHED.has(field)) ?? null;
}

/**
 * The rules across fields, on the merged values; `changed` limits the time checks to what the
 * request set (an announcement whose time passed may stay on an entry that is edited otherwise).
 */
export function checkEntryValues(values: EntryValues, changed: ReadonlySet<EntryField>, now: Date): void {
  checkMarkdown(values.bodyMarkdown);
  if (values.coverImageUrl !== null) checkCoverImageUrl(values.coverImageUrl);
  checkCta(values.ctaLabel, values.ctaUrl);
  if (values.audience === 'segment' && values.segment === null) {
    throw invalid('segment', 'segment is required with audience "segment".', 'Send a segment rule object: {match, rules}.');
  }
  if (values.audience !== 'segment' && values.segment !== null) {
    throw invalid('segment', 'segment is only accepted with audience "segment".', 'Send audience "segment" with it, or leave segment out.');
  }
  if (changed.has('scheduledAt') && values.scheduledAt !== null && values.scheduledAt.getTime() <= now.getTime()) {
    throw invalid('scheduled_at', 'scheduled_at must be in the future.', 'Send a later time, or leave scheduled_at out to publish now.');
  }
  if (changed.has('announcement') && values.announcement !== null && values.announcement.until.getTime() <= now.getTime()) {
    throw invalid('announcement.until', 'announcement.until must be in the future.');
  }
}

/** Spec: links in text must be http(s), mailto:, a path or an anchor; images https:// only. */
export function checkMarkdown(body: string): void {
  if (codePointLength(body) > ENTRY_LIMITS.bodyMax) {
    throw invalid('body_markdown', `body_markdown must be at most ${ENTRY_LIMITS.bodyMax} characters.`);
  }
  const [problem] = findUnsafeMarkdownLinks(body);
  if (problem) {
    const url = problem.url.length > 100 ? `${problem.url.slice(0, 100)}…` : problem.url;
    throw invalid(
      'body_markdown',
      `body_markdown has the ${problem.kind} "${url}": ${problem.reason}.`,
      `Change or remove that ${problem.kind}.`,
    );
  }
}

function absoluteUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

export function checkCoverImageUrl(url: string): void {
  const parsed = absoluteUrl(url);
  if (unsafeUrlReason(url, 'image') !== null || parsed?.protocol !== 'https:' || !parsed.hostname) {
    throw invalid(
      'cover_image_url',
      'cover_image_url must be an absolute https:// link to an image.',
      'Host the image on https and send its full URL.',
    );
  }
}

/** An http(s) URL or a site path (`/pricing`, not `//host`, which names another site). */
export function isCtaUrl(url: string): boolean {
  // Control characters and spaces would let a browser read the path as something else.
  // eslint-disable-next-line no-control-regex
  if (url.startsWith('/')) return !/^\/[/\\]/.test(url) && !/[\u0000-\u0020\u007f]/.test(url);
  const parsed = absoluteUrl(url);
  return (parsed?.protocol === 'https:' || parsed?.protocol === 'http:') && Boolean(parsed.hostname);
}

export function checkCta(label: string | null, url: string | null): void {
  if (label !== null && url === null)
    throw invalid('cta_url', 'cta_url is required with cta_label.', 'Send both cta_label and cta_url, or both null.');
  if (url !== null && label === null)
    throw invalid('cta_label', 'cta_label is required with cta_url.', 'Send both cta_label and cta_url, or both null.');
  if (url !== null && !isCtaUrl(url)) {
    throw invalid(
      'cta_url',
      'cta_url must be an http(s) URL or a site path starting with "/".',
      'Send a link such as https://example.com/pricing or /pricing.',
    );
  }
}

const DETAIL_OPS = ['eq', 'neq', 'in', 'exists'] as const;
const CONSENT_STATUSES = ['granted', 'withdrawn'] as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, param: string, max: number): string {
  if (typeof value !== 'string' || value.length === 0 || codePointLength(value) > max) {
    throw invalid(param, `${param} must be a string of 1 to ${max} characters.`);
  }
  return value;
}

function onlyKeys(value: Record<string, unknown>, allowed: readonly string[], path: string): void {
  const extra = Object.keys(value).find((key) => !allowed.includes(key));
  if (extra !== undefined) throw invalid(`${path}.${extra}`, `Unknown field "${path}.${extra}".`);
}

function parseCondition(raw: unknown, path: string): SegmentCondition {
  if (!isPlainObject(raw)) throw invalid(path, `${path} must be an object.`);
  if (raw.type === 'consent') {
    onlyKeys(raw, ['type', 'purpose', 'status'], path);
    const purpose = text(raw.purpose, `${path}.purpose`, ENTRY_LIMITS.segmentKeyMax);
    const status = raw.status ?? 'granted';
    if (!CONSENT_STATUSES.includes(status as never)) throw invalid(`${path}.status`, `${path}.status must be one of: granted, withdrawn.`);
    return { type: 'consent', purpose, status: status as 'granted' | 'withdrawn' };
  }
  if (raw.type !== 'detail') throw invalid(`${path}.type`, `${path}.type must be one of: detail, consent.`);
  onlyKeys(raw, ['type', 'key', 'op', 'value'], path);
  const key = text(raw.key, `${path}.key`, ENTRY_LIMITS.segmentKeyMax);
  const op = raw.op;
  if (!DETAIL_OPS.includes(op as never)) throw invalid(`${path}.op`, `${path}.op must be one of: ${DETAIL_OPS.join(', ')}.`);
  if (op === 'exists') {
    if (raw.value !== undefined) throw invalid(`${path}.value`, `${path}.value must be left out with op "exists".`);
    return { type: 'detail', key, op };
  }
  if (op === 'in') {
    if (!Array.isArray(raw.value) || raw.value.length === 0 || raw.value.length > ENTRY_LIMITS.segmentListMax) {
      throw invalid(`${path}.value`, `${path}.value must be a list of 1 to ${ENTRY_LIMITS.segmentListMax} strings with op "in".`);
    }
    const values = raw.value.map((item, index) => text(item, `${path}.value[${index}]`, ENTRY_LIMITS.segmentValueMax));
    return { type: 'detail', key, op, value: values };
  }
  return { type: 'detail', key, op: op as 'eq' | 'neq', value: text(raw.value, `${path}.value`, ENTRY_LIMITS.segmentValueMax) };
}

/** Spec: Segment rule. `param` points into the object, such as `segment.rules[3].op`. */
export function parseSegment(raw: unknown): SegmentRule {
  if (!isPlainObject(raw)) throw invalid('segment', 'segment must be an object {match, rules}.');
  onlyKeys(raw, ['match', 'rules'], 'segment');
  if (raw.match !== 'all' && raw.match !== 'any') throw invalid('segment.match', 'segment.match must be one of: all, any.');
  if (!Array.isArray(raw.rules) || raw.rules.length === 0 || raw.rules.length > MAX_SEGMENT_RULES) {
    throw invalid('segment.rules', `segment.rules must be a list of 1 to ${MAX_SEGMENT_RULES} rules.`);
  }
  return { match: raw.match, rules: raw.rules.map((rule, index) => parseCondition(rule, `segment.rules[${index}]`)) };
}

/** The status a create request asks for (spec: States and transitions → Changelog entry). */
export function statusOnCreate(draft: boolean, scheduledAt: Date | null): EntryStatus {
  if (draft) {
    if (scheduledAt !== null) {
      throw invalid(
        'status',
        'A draft has no scheduled_at.',
        'Send status "draft" to keep it unpublished, or scheduled_at to publish it later, not both.',
      );
    }
    return 'draft';
  }
  return scheduledAt === null ? 'published' : 'scheduled';
}

/** Published and scheduled entries hold a place under the Free cap (see the module comment). */
export function holdsPlanSlot(status: EntryStatus): boolean {
  return status === 'published' || status === 'scheduled';
}
