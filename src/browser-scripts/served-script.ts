import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { shiftMappings } from './source-map-columns';

/** The browser scripts, one folder each under src/browser/ (scripts/build-browser.js lists the same). */
export const BROWSER_SCRIPTS = ['notifications', 'changelog'] as const;
export type BrowserScriptName = (typeof BROWSER_SCRIPTS)[number];

/** A script as the build writes it: the minified bundle and its source map. */
export interface BrowserBundle {
  name: BrowserScriptName;
  script: Buffer;
  map: Buffer;
}

/**
 * Where a bundle holds the API's address (src/browser/shared/script.ts): the server writes its
 * PUBLIC_BASE_URL there, so one build serves every deployment.
 */
export const BASE_URL_PLACEHOLDER = '__LAUNCH_SERVICE_BASE_URL__';

/** One representation as sent, with its strong ETag (the SHA-256 of exactly these bytes). */
export interface EncodedBody {
  body: Buffer;
  etag: string;
}

/** A file in both encodings: browsers that accept gzip get the smaller one. */
export interface ServedFile {
  identity: EncodedBody;
  gzip: EncodedBody;
}

export interface ServedScript {
  name: BrowserScriptName;
  /** 16 hex digits of the SHA-256 of the served code and its source map: the `<hash>` of the immutable address. */
  hash: string;
  /** Subresource Integrity of the content-hashed copy (`integrity` on its script tag). */
  integrity: string;
  /** `/v1/<name>.js`, which names its map `<name>.js.map`. */
  latest: ServedFile;
  /** `/v1/<name>.<hash>.js`, which names its map `<name>.<hash>.js.map`. */
  pinned: ServedFile;
  /** The source map, the same under both names. */
  map: ServedFile;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data);

function served(text: string): ServedFile {
  const encode = (body: Buffer): EncodedBody => ({ body, etag: `"${sha256(body).digest('base64url')}"` });
  const identity = Buffer.from(text, 'utf8');
  return { identity: encode(identity), gzip: encode(gzipSync(identity, { level: 9 })) };
}

/**
 * `value` as the inside of any JavaScript string literal ('…', "…" or `…`): every character but the
 * plain ones of a URL becomes a \u escape, so no configured address can end the literal.
 */
export function asStringContent(value: string): string {
  return value.replace(/[^\w.:/?#@!&=+,;%~-]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

interface SourceMap {
  mappings: string;
  [field: string]: unknown;
}

/** The code with the base URL written in, and its map with the columns after it moved to match. */
function writeBaseUrl(bundle: BrowserBundle, code: string, baseUrl: string): { code: string; map: SourceMap } {
  const at = code.indexOf(BASE_URL_PLACEHOLDER);
  if (at < 0 || code.includes(BASE_URL_PLACEHOLDER, at + 1)) {
    throw new Error(
      `${bundle.name}.js must hold ${BASE_URL_PLACEHOLDER} exactly once (src/browser/shared/script.ts); build it again with npm run build`,
    );
  }
  const literal = asStringContent(baseUrl);
  const lineStart = code.lastIndexOf('\n', at) + 1;
  const line = code.slice(0, lineStart).split('\n').length - 1;
  const map = JSON.parse(bundle.map.toString('utf8')) as SourceMap;
  map.mappings = shiftMappings(map.mappings, line, at - lineStart, literal.length - BASE_URL_PLACEHOLDER.length);
  return { code: code.slice(0, at) + literal + code.slice(at + BASE_URL_PLACEHOLDER.length), map };
}

/**
 * A built bundle as the server sends it: `baseUrl` written in (its source map still exact), then the
 * content hash over the code and map, and the `sourceMappingURL` line that names the map beside each
 * address. Computed once at start; every answer after that is a lookup.
 */
export function serveBundle(bundle: BrowserBundle, baseUrl: string): ServedScript {
  const built = bundle.script.toString('utf8').replace(/\n\/\/# sourceMappingURL=[^\n]*\n?$/, '');
  const { code, map } = writeBaseUrl(bundle, built, baseUrl);
  const mapText = JSON.stringify(map);
  const hash = sha256(code).update('\n').update(mapText).digest('hex').slice(0, 16);
  const withMap = (mapName: string) => `${code}\n//# sourceMappingURL=${mapName}\n`;
  const pinned = withMap(`${bundle.name}.${hash}.js.map`);
  return {
    name: bundle.name,
    hash,
    integrity: `sha384-${createHash('sha384').update(pinned, 'utf8').digest('base64')}`,
    latest: served(withMap(`${bundle.name}.js.map`)),
    pinned: served(pinned),
    map: served(mapText),
  };
}
