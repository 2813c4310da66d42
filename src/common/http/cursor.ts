import { ApiError } from '../errors/api-error';

/**
 * Opaque cursors: base64url JSON of the position after the last item. Lists order by id (ULIDs sort
 * by creation time), so the position is the last id. Clients must not build cursors themselves.
 */
export function encodeCursor(position: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

export function decodeCursor<T extends Record<string, string | number>>(cursor: string, required: (keyof T)[]): T {
  try {
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as T;
    if (decoded && typeof decoded === 'object' && required.every((field) => decoded[field] !== undefined)) return decoded;
  } catch {
    // fall through to the error below
  }
  throw new ApiError('VALIDATION_ERROR', 'The cursor is not one this API returned.', { param: 'cursor' });
}
