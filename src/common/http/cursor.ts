import { ApiError } from '../errors/api-error';
import { type IdPrefix, isId } from '../ids/ids';

/**
 * What a list is ordered by, which is also the one field its cursor holds: the id (ULIDs sort by
 * creation time), a 1-based position (the waitlist's line order), or a publication time with the id
 * that breaks its ties, written `<ISO time>|<id>` (lists in the order readers see: newest published).
 */
export type CursorKey = { field: 'id'; prefix: IdPrefix } | { field: 'position' } | { field: 'published'; prefix: IdPrefix };

export type CursorValue = string | number;

/**
 * Opaque cursors: base64url JSON of the key of the last item, `{"id":"fb_…"}` or `{"position":42}`.
 * Clients must not build cursors themselves.
 */
export function encodeCursor(key: CursorKey, value: CursorValue): string {
  return Buffer.from(JSON.stringify({ [key.field]: value }), 'utf8').toString('base64url');
}

// Far above anything encodeCursor writes (an id is under 40 characters); refused before decoding.
const MAX_CURSOR_LENGTH = 512;

/** Positions are a PostgreSQL `integer` column: a larger cursor would fail in the query, as a 500. */
export const MAX_POSITION = 2 ** 31 - 1;

function keyValue(key: CursorKey, value: unknown): CursorValue | null {
  if (key.field === 'id') return isId(key.prefix, value) ? value : null;
  if (key.field === 'published') return publishedKeyOf(key.prefix, value) ? (value as string) : null;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= MAX_POSITION ? value : null;
}

// Years 1 to 9999, written with four digits: a `timestamptz` column holds them all, and a cursor
// this API wrote never holds another (toISOString writes the rest with a sign, `-271821-04-20…`).
const FOUR_DIGIT_YEAR = /^\d{4}-/;

/** `<ISO time>|<id>`, the value of a `published` cursor. */
export function publishedCursorValue(publishedAt: Date, id: string): string {
  return `${publishedAt.toISOString()}|${id}`;
}

/** The time and id of a `published` cursor value, or null when it is not one. */
export function publishedKeyOf(prefix: IdPrefix, value: unknown): { publishedAt: Date; id: string } | null {
  if (typeof value !== 'string') return null;
  const [time, id, ...rest] = value.split('|');
  const publishedAt = new Date(time);
  if (rest.length > 0 || !isId(prefix, id) || !FOUR_DIGIT_YEAR.test(time) || time.startsWith('0000')) return null;
  if (Number.isNaN(publishedAt.getTime()) || publishedAt.toISOString() !== time) return null;
  return { publishedAt, id };
}

/**
 * The key a cursor holds, or null unless it decodes to an object with exactly the expected field,
 * of the expected type and range (an id of the list's prefix; a position from 1 to MAX_POSITION;
 * a publication time in years 1 to 9999). Never throws: anything else a client sends is null.
 */
export function cursorValue(cursor: string, key: CursorKey): CursorValue | null {
  if (cursor.length > MAX_CURSOR_LENGTH) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) return null;
  const fields = Object.keys(decoded);
  if (fields.length !== 1 || fields[0] !== key.field) return null;
  return keyValue(key, (decoded as Record<string, unknown>)[key.field]);
}

/** `cursorValue`, or 400 VALIDATION_ERROR on `cursor`. */
export function decodeCursor(cursor: string, key: CursorKey): CursorValue {
  const value = cursorValue(cursor, key);
  if (value === null) throw new ApiError('VALIDATION_ERROR', 'The cursor is not one this API returned.', { param: 'cursor' });
  return value;
}
