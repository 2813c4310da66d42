import { ApiError } from '../errors/api-error';
import { type IdPrefix, isId } from '../ids/ids';

/**
 * What a list is ordered by, which is also the one field its cursor holds: the id (ULIDs sort by
 * creation time) or a 1-based position (the waitlist's line order).
 */
export type CursorKey = { field: 'id'; prefix: IdPrefix } | { field: 'position' };

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

function keyValue(key: CursorKey, value: unknown): CursorValue | null {
  if (key.field === 'id') return isId(key.prefix, value) ? value : null;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : null;
}

/**
 * The key a cursor holds, or null unless it decodes to an object with exactly the expected field,
 * of the expected type and range (an id of the list's prefix; a position that is a positive safe
 * integer). Never throws: anything else a client sends is null.
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
