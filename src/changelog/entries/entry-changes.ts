import { EDITABLE_WHEN_PUBLISHED, type EntryField, type EntryValues } from './entry-fields';

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
