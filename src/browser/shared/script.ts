import { type AttributeReader, attributeReader, httpUrl } from './attributes';

/**
 * The API's address as the server writes it into the bundle: the server replaces this text with
 * its PUBLIC_BASE_URL when it serves the script (src/browser-scripts/served-script.ts), so one
 * build works on every server. It must occur exactly once in each bundle (the server checks).
 */
const SERVED_BASE_URL = '__LAUNCH_SERVICE_BASE_URL__';

export interface LaunchScript {
  /** The <script> tag that loaded this bundle; null when there is none (loaded as a module or by eval). */
  tag: HTMLScriptElement | null;
  /** Reads the tag's `data-…` settings (attributes.ts). */
  read: AttributeReader;
  /** Where the API is: `data-api` when it is a valid http(s) URL, else the server's PUBLIC_BASE_URL. */
  api: string;
}

/**
 * This bundle's script tag and settings. Call it at the top level of an entry file: the browser
 * names the running <script> (document.currentScript) only while the bundle first runs.
 */
export function launchScript(label: string): LaunchScript {
  const current = document.currentScript;
  const tag = current instanceof HTMLScriptElement ? current : null;
  const read = attributeReader(tag, label);
  return { tag, read, api: read('data-api', httpUrl, SERVED_BASE_URL) };
}
