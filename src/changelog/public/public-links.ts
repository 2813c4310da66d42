import type { AppConfig } from '../../config/app-config';
import { entryPublicUrl } from '../shared/changelog-links';
import { FEED_FORMATS, type FeedLinks } from './changelog-feeds';
import type { PageLinks } from './changelog-pages';

/**
 * The absolute addresses of a project's public changelog: from PUBLIC_BASE_URL, or on the verified
 * custom domain the request arrived on (`customDomain`), where the page is `/`, an entry `/{id}` and
 * the feeds `/rss.xml`, `/atom.xml` and `/feed.json` (custom-domain-routes.ts).
 */
export function publicLinks(config: AppConfig, slug: string, customDomain: string | null = null): FeedLinks & PageLinks {
  if (customDomain !== null) return customDomainLinks(`https://${customDomain}`);
  const folder = `${config.publicBaseUrl}/public/changelog/${slug}`;
  const entry = (entryId: string) => entryPublicUrl(config, slug, entryId);
  return {
    page: `${config.publicBaseUrl}/changelog/${slug}`,
    folder,
    entry,
    entryUrl: entry,
    feeds: {
      rss: `${folder}/${FEED_FORMATS.rss.file}`,
      atom: `${folder}/${FEED_FORMATS.atom.file}`,
      json: `${folder}/${FEED_FORMATS.json.file}`,
    },
  };
}

function customDomainLinks(origin: string): FeedLinks & PageLinks {
  const entry = (entryId: string) => `${origin}/${entryId}`;
  return {
    page: `${origin}/`,
    folder: origin,
    entry,
    entryUrl: entry,
    feeds: {
      rss: `${origin}/${FEED_FORMATS.rss.file}`,
      atom: `${origin}/${FEED_FORMATS.atom.file}`,
      json: `${origin}/${FEED_FORMATS.json.file}`,
    },
  };
}
