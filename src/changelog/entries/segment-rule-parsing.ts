import { codePointLength } from '../../common/validation/char-length';
import { MAX_SEGMENT_RULES, type SegmentCondition, type SegmentRule } from '../shared/segment-rule';
import { ENTRY_LIMITS, invalid } from './entry-fields';

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
