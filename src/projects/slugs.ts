import { randomBase62 } from '../common/ids/random-base62';
import { patternKind } from '../common/http/path-param.pipe';

export const SLUG_PATTERN = /^[a-z0-9-]{1,40}$/;

/** A project slug in a path (`/public/changelog/{project_slug}`); any other text names no project. */
export const PROJECT_SLUG_PARAM = patternKind({
  pattern: SLUG_PATTERN,
  example: 'acme',
  mismatch: 'No project has this slug.',
  remediation: "Use the project's slug as shown in the dashboard; slugs are lowercase letters, digits and hyphens.",
  description: "The project's slug.",
});

/**
 * Slugs that would shadow a path of the service, look like ours to a visitor, or name common
 * infrastructure hosts (a custom domain or a subdomain may carry the slug). docs/dashboard.md: Slugs.
 */
export const RESERVED_SLUGS = new Set([
  'about',
  'account',
  'accounts',
  'admin',
  'api',
  'app',
  'apps',
  'assets',
  'auth',
  'billing',
  'blog',
  'cdn',
  'changelog',
  'dashboard',
  'docs',
  'email',
  'feed',
  'feeds',
  'help',
  'login',
  'logout',
  'mail',
  'new',
  'pricing',
  'privacy',
  'public',
  'register',
  'security',
  'settings',
  'signin',
  'signout',
  'signup',
  'smtp',
  'static',
  'status',
  'support',
  'system',
  'terms',
  'v1',
  'v2',
  'w',
  'webhooks',
  'widgets',
  'www',
]);

export function isValidSlug(slug: string): boolean {
  return SLUG_PATTERN.test(slug);
}

/** "My Great App!" → "my-great-app"; empty names fall back to "project". */
export function slugFromName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 33)
    .replace(/-+$/, '');
  return base || 'project';
}

/** A generated slug that collided gets a short random suffix, staying within 40 characters. */
export function withRandomSuffix(slug: string): string {
  return `${slug.slice(0, 33)}-${randomBase62(6).toLowerCase()}`;
}
