import type { AppConfig } from '../../config/app-config';
import { entryPublicUrl } from '../changelog-links';
import { FEED_FORMATS, type FeedLinks } from './changelog-feeds';
import type { PageLinks } from './changelog-pages';

/** The absolute addresses of a project's public changelog, from PUBLIC_BASE_URL. */
export function publicLinks(config: AppConfig, slug: string): FeedLinks & PageLinks {
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
