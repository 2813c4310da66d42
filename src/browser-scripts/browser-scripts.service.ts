import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createHash } from 'node:crypto';
import { ApiError } from '../common/errors/api-error';
import { RawReply } from '../common/http/reply';
import { JSON_CONTENT_TYPE } from '../common/fast-paths/json-writer';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RUNNING_FROM_SOURCES, bundleFromSources, readBuiltBundles } from './bundle-source';
import type { BrowserScriptsDto } from './dto/browser-scripts.dto';
import { type BrowserScriptName, type ServedFile, type ServedScript, serveBundle } from './served-script';

/**
 * Serves the embeddable browser scripts (`{cdn_url}/v1/notifications.js`, `/v1/changelog.js`).
 *
 * Choices the spec leaves open:
 * - Each script has two addresses: `<name>.js`, which follows upgrades (5 minutes in any cache), and
 *   `<name>.<hash>.js`, which never changes (a year, `immutable`). The hash covers the bytes served,
 *   PUBLIC_BASE_URL included; another hash is NOT_FOUND, since this server holds only its own
 *   release. `GET /v1/browser-scripts.json` lists the hashed addresses with their SRI.
 * - Every answer allows any origin and any embedding page (Access-Control-Allow-Origin `*`,
 *   Cross-Origin-Resource-Policy `cross-origin`), also for requests without an Origin, so a copy a
 *   CDN kept works for `crossorigin` script tags too. No per-IP limit: the files come from memory,
 *   and a limit would cost more than the answer while blocking every visitor behind one address.
 * - gzip (level 9, made once) for browsers that accept it; the ETag names each encoding's bytes.
 * - A compiled server reads dist/browser/ when it starts and stops with a clear message when the
 *   build is missing; the worker and the CLI, which serve nothing, skip it.
 */
const LATEST = 'public, max-age=300';
const PINNED = 'public, max-age=31536000, immutable';
const SCRIPT_CONTENT_TYPE = 'text/javascript; charset=utf-8';

type Scripts = ReadonlyMap<BrowserScriptName, ServedScript>;

@Injectable()
export class BrowserScriptsService implements OnApplicationBootstrap {
  private loading: Promise<Scripts> | null = null;
  private manifest: RawReply | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!RUNNING_FROM_SOURCES && this.adapterHost.httpAdapter) await this.scripts();
  }

  /** `/v1/<name>.js`, or `/v1/<name>.<hash>.js` when `hash` is given (NOT_FOUND unless it is the current one). */
  async getScript(name: BrowserScriptName, gzip: boolean, hash?: string): Promise<RawReply> {
    const script = await this.script(name, hash);
    return hash === undefined
      ? fileReply(script.latest, SCRIPT_CONTENT_TYPE, LATEST, gzip)
      : fileReply(script.pinned, SCRIPT_CONTENT_TYPE, PINNED, gzip);
  }

  /** The script's source map, under `<name>.js.map` or `<name>.<hash>.js.map`. */
  async getSourceMap(name: BrowserScriptName, gzip: boolean, hash?: string): Promise<RawReply> {
    const script = await this.script(name, hash);
    return fileReply(script.map, JSON_CONTENT_TYPE, hash === undefined ? LATEST : PINNED, gzip);
  }

  /** `{data: BrowserScriptsDto, error: null}`, with its own ETag: public, the same for everyone. */
  async getBrowserScripts(): Promise<RawReply> {
    const scripts = await this.scripts();
    if (!this.manifest) {
      const notifications = scripts.get('notifications')!;
      const changelog = scripts.get('changelog')!;
      const data: BrowserScriptsDto = {
        version: createHash('sha256').update(`${notifications.hash}.${changelog.hash}`).digest('hex').slice(0, 16),
        notifications: this.pinnedUrl(notifications),
        changelog: this.pinnedUrl(changelog),
        integrity: { notifications: notifications.integrity, changelog: changelog.integrity },
      };
      const body = JSON.stringify({ data, error: null });
      this.manifest = new RawReply(body, JSON_CONTENT_TYPE, 200, {
        ETag: `"${createHash('sha256').update(body).digest('base64url')}"`,
        'Cache-Control': LATEST,
        'Access-Control-Allow-Origin': '*',
      });
    }
    return this.manifest;
  }

  private pinnedUrl(script: ServedScript): string {
    return `${this.config.cdnUrl}/v1/${script.name}.${script.hash}.js`;
  }

  private async script(name: BrowserScriptName, hash: string | undefined): Promise<ServedScript> {
    const script = (await this.scripts()).get(name)!;
    if (hash !== undefined && hash !== script.hash) {
      throw new ApiError('NOT_FOUND', `This server has no ${name}.js with hash ${hash}.`, {
        param: 'hash',
        remediation: `Use ${name}.${script.hash}.js, or ${name}.js to follow upgrades; GET /v1/browser-scripts.json lists the current addresses.`,
      });
    }
    return script;
  }

  /** The served files, made once per process: from dist/browser/, or bundled in memory when running from the sources. */
  private scripts(): Promise<Scripts> {
    this.loading ??= (RUNNING_FROM_SOURCES ? bundleFromSources() : Promise.resolve().then(() => readBuiltBundles())).then(
      (bundles) => new Map(bundles.map((bundle) => [bundle.name, serveBundle(bundle, this.config.publicBaseUrl)])),
    );
    return this.loading;
  }
}

/** One file in the encoding the client takes, with the headers every script answer carries. */
function fileReply(file: ServedFile, contentType: string, cacheControl: string, gzip: boolean): RawReply {
  const encoded = gzip ? file.gzip : file.identity;
  const headers: Record<string, string> = {
    ETag: encoded.etag,
    'Cache-Control': cacheControl,
    'Access-Control-Allow-Origin': '*',
    Vary: 'Accept-Encoding',
  };
  if (gzip) headers['Content-Encoding'] = 'gzip';
  return new RawReply(encoded.body, contentType, 200, headers);
}
