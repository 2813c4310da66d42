import type { EndUser } from '../../auth/caller';
import type { ReaderKeys } from './widget.queries';

/**
 * The person behind a widget call (spec: widget identity): a verified `user_id` when the route
 * policy verified one (a wrong hash never gets here: it is 403 USER_HASH_INVALID), else the
 * browser's `client_id`, else anonymous. A client id only keys reactions; it never widens what a
 * reader sees.
 */
export function readerOf(endUser: EndUser | null, clientId: string | undefined): ReaderKeys {
  if (endUser?.verified) return { userId: endUser.userId, reactor: `u:${endUser.userId}` };
  return { userId: null, reactor: clientId ? `c:${clientId}` : null };
}
