import type { AnnouncementStyle } from '../entities/changelog-entry.entity';
import { type EntryField, type EntryFieldsInput, type EntryValues, WIRE_NAMES, invalid } from './entry-fields';
import { parseSegment } from './segment-rule-parsing';

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
