import type { AppConfig } from '../../config/app-config';

/** `{base_url}/changelog/{slug}/{entry_id}`: an entry's page on the hosted changelog, its `public_url`. */
export function entryPublicUrl(config: AppConfig, projectSlug: string, entryId: string): string {
  return `${config.publicBaseUrl}/changelog/${projectSlug}/${entryId}`;
}
