import { createHash } from 'node:crypto';
import { RawReply } from '../../common/http/reply';

/**
 * How long browsers and shared caches may keep a public answer without asking again. The public
 * surfaces hold no personal data, so shared caches (a CDN in front of the service) may keep them;
 * a minute bounds how long a newly published or expired entry takes to show everywhere, and the
 * ETag makes every revalidation after that a 304 without a body.
 */
const PUBLIC_CACHE_CONTROL = 'public, max-age=60';

/** A strong validator: the SHA-256 of the exact bytes sent, so equal bodies always share a tag. */
export function strongEtag(body: string): string {
  return `"${createHash('sha256').update(body, 'utf8').digest('base64url')}"`;
}

/**
 * A public body with its ETag and Cache-Control. Express answers `If-None-Match` with 304 and no
 * body when the tag matches (it leaves a tag that is already set alone). `cors` adds
 * `Access-Control-Allow-Origin: *` on every answer, also without an Origin header, so an answer a
 * shared cache kept for a server-side reader still works for a browser on another site.
 */
export function cacheableReply(
  body: string,
  contentType: string,
  options: { cors?: boolean; headers?: Record<string, string> } = {},
): RawReply {
  const headers: Record<string, string> = { ETag: strongEtag(body), 'Cache-Control': PUBLIC_CACHE_CONTROL, ...options.headers };
  if (options.cors) headers['Access-Control-Allow-Origin'] = '*';
  return new RawReply(body, contentType, 200, headers);
}
