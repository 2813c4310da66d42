import { findUnsafeMarkdownLinks, unsafeUrlReason } from '../../common/markdown/markdown-links';
import { codePointLength } from '../../common/validation/char-length';
import { ENTRY_LIMITS, type EntryField, type EntryValues, invalid } from './entry-fields';

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
function checkMarkdown(body: string): void {
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

function checkCoverImageUrl(url: string): void {
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
