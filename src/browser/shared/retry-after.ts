/**
 * How long to wait, in milliseconds, before calling again after an answer with `Retry-After`
 * (429 RATE_LIMITED, 503): the header holds seconds or an HTTP date. Null when the header is
 * missing or unreadable, so the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its month ("Fri, 27 Nov 2026 10:01:30 GMT"); Date.parse alone takes "1.5" too.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
