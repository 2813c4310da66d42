import { mkdirSync, readFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { type BrowserFixture, type BrowserFixtureOptions, startAppWithBrowser } from './browser';

/**
 * The browser scripts as a customer's page embeds them: the app listens on one loopback origin
 * (PUBLIC_BASE_URL and CDN_URL, so the served scripts call it), and a host page comes from another
 * origin (`localhost`, another port: a different site) with a strict Content-Security-Policy. Each
 * page collects `securitypolicyviolation` events, console messages and page errors, runs axe-core
 * (which looks inside open shadow roots), and writes screenshots to test/artifacts/ (git-ignored;
 * $SCREENSHOT_DIR instead when set).
 */

const ROOT = join(__dirname, '..', '..');
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The policy the scripts must work under, unchanged: only scripts from the CDN, calls to the API, images. */
export function strictPolicy(cdn: string, base: string): string {
  return `default-src 'none'; script-src ${cdn}; connect-src ${base}; img-src ${base} https: data:`;
}

export interface ScriptTag {
  /** `notifications` or `changelog` ({cdn}/v1/<name>.js), or a full URL (a content-hashed copy). */
  script: string;
  /** `data-…` attributes, named without the prefix: `{ key: 'svc_pub_…', 'user-id': 'u_1' }`. */
  data?: Record<string, string>;
  /** Other attributes of the tag, such as `integrity` and `crossorigin`. */
  attributes?: Record<string, string>;
}

export interface HostPageOptions {
  scripts: ScriptTag[];
  /** HTML placed in <main> before the scripts (a `data-target` container, say); the test's own, trusted. */
  body?: string;
  /** The page's Content-Security-Policy; strictPolicy(cdn, base) by default. */
  policy?: string;
  /** Such as `{ width: 375, height: 800 }`; 1280 × 720 by default. */
  viewport?: BrowserContextOptions['viewport'];
  /** The visitor's `prefers-color-scheme`; light by default. */
  colorScheme?: 'light' | 'dark';
  /** Runs on the new page before it loads: init scripts, `page.clock.install()`, routes. */
  setup?: (page: Page) => Promise<void>;
}

export interface CspViolation {
  directive: string;
  blockedURI: string;
  sourceFile: string;
  sample: string;
}

export interface ConsoleEntry {
  /** `log`, `warning`, `error`…, or `pageerror` for an uncaught exception. */
  type: string;
  text: string;
}

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  /** CSS selectors of the offending nodes; a node in a shadow root is `[host selector, inner selector]`. */
  targets: unknown[];
}

/** What a test reads of a custom element: its open shadow root's sheets, and computed styles inside it. */
export interface ShadowLook {
  /** How many stylesheets the shadow root adopted; null when the element or its open root is missing. */
  adoptedStyleSheets: number | null;
  /** getComputedStyle(element)[property] of the first element `selector` matches inside the root. */
  styles: Record<string, string>;
}

/**
 * The page's globals as page.evaluate callbacks use them. The test program is compiled without
 * the DOM library (it would give server code browser globals), so a callback reaches the page
 * through `globalThis as unknown as PageGlobals`; only what the harness uses is typed.
 */
interface PageNode {
  shadowRoot: { adoptedStyleSheets: unknown[]; querySelector(selector: string): PageNode | null } | null;
}
interface PageGlobals {
  document: {
    querySelector(selector: string): PageNode | null;
    addEventListener(type: string, listener: (event: Record<string, string>) => void): void;
    documentElement: { scrollWidth: number };
  };
  getComputedStyle(node: PageNode): Record<string, string>;
  __cspViolations: CspViolation[];
  axe: { run(context: unknown, options: object): Promise<{ violations: (AxeViolation & { nodes: { target: unknown }[] })[] }> };
}

export interface HostPage {
  page: Page;
  url: string;
  /** Console messages and page errors so far. */
  console: ConsoleEntry[];
  /** The `securitypolicyviolation` events the page has seen so far. */
  violations(): Promise<CspViolation[]>;
  /** axe-core's serious and critical violations on the whole page, shadow roots included. */
  axe(): Promise<AxeViolation[]>;
  /** The shadow root of the first `tag` element: its adopted sheets and computed `properties` of `selector` in it. */
  shadowLook(tag: string, selector: string, properties: string[]): Promise<ShadowLook>;
  /** The page's scroll width in CSS pixels (wider than the viewport means a horizontal scrollbar). */
  scrollWidth(): Promise<number>;
  /** A full-page PNG named `<name>.png` in the screenshot folder; answers its path. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export interface ScriptsFixture extends BrowserFixture {
  /** The host pages' origin: `http://localhost:<port>`, another site than the app. */
  hostOrigin: string;
  /** `{cdn_url}` and `{base_url}` of the app: both its own origin. */
  cdn: string;
  base: string;
  /** Serves a host page with the given scripts and opens it in a new browser context. */
  openPage(options: HostPageOptions): Promise<HostPage>;
}

/** Where screenshots go: $SCREENSHOT_DIR, else test/artifacts/ (git-ignored). */
export function screenshotDir(): string {
  return process.env.SCREENSHOT_DIR ?? join(ROOT, 'test', 'artifacts');
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function scriptTag(tag: ScriptTag, cdn: string): string {
  const src = /^https?:/.test(tag.script) ? tag.script : `${cdn}/v1/${tag.script}.js`;
  const attributes = {
    src,
    ...tag.attributes,
    ...Object.fromEntries(Object.entries(tag.data ?? {}).map(([name, value]) => [`data-${name}`, value])),
  };
  return `<script ${Object.entries(attributes)
    .map(([name, value]) => `${name}="${escapeAttribute(value)}"`)
    .join(' ')}></script>`;
}

// The icon is a data: URL, which img-src allows, so the browser's favicon request breaks no rule.
function hostHtml(options: HostPageOptions, cdn: string): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Host page</title><link rel="icon" href="data:,"></head>',
    `<body><main><h1>Host page</h1>${options.body ?? ''}</main>`,
    ...options.scripts.map((tag) => scriptTag(tag, cdn)),
    '</body></html>',
  ].join('\n');
}

/** A tiny server for the host pages: each page at its own path, with its own policy. */
async function startHostServer(pages: Map<string, { html: string; policy: string }>): Promise<Server> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const page = pages.get(req.url ?? '');
    if (!page) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': page.policy, 'Cache-Control': 'no-store' });
    res.end(page.html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Runs in the page before any of its scripts: records every violation of the page's policy. */
export function recordViolations(): void {
  const page = globalThis as unknown as PageGlobals;
  page.__cspViolations = [];
  page.document.addEventListener('securitypolicyviolation', (event) => {
    page.__cspViolations.push({
      directive: event.effectiveDirective,
      blockedURI: event.blockedURI,
      sourceFile: event.sourceFile,
      sample: event.sample,
    });
  });
}

/**
 * The app (PUBLIC_BASE_URL = CDN_URL = its own loopback origin), Chromium, and a host-page server
 * on another origin. `env`: extra variables of the app (BROWSER_RATE_LIMIT for suites that open
 * many pages within a minute).
 */
export async function startScriptsFixture(options: Pick<BrowserFixtureOptions, 'env'> = {}): Promise<ScriptsFixture> {
  const fixture = await startAppWithBrowser({ ...options, publicBaseUrlIsOrigin: true });
  const pages = new Map<string, { html: string; policy: string }>();
  let hostServer: Server;
  try {
    hostServer = await startHostServer(pages);
  } catch (error) {
    await fixture.close();
    throw error;
  }
  const hostOrigin = `http://localhost:${(hostServer.address() as AddressInfo).port}`;
  const cdn = fixture.t.config.cdnUrl;
  const base = fixture.t.config.publicBaseUrl;
  let opened = 0;

  async function openPage(options: HostPageOptions): Promise<HostPage> {
    const path = `/page-${++opened}`;
    pages.set(path, { html: hostHtml(options, cdn), policy: options.policy ?? strictPolicy(cdn, base) });
    const context = await fixture.browser.newContext({ viewport: options.viewport, colorScheme: options.colorScheme ?? 'light' });
    await context.addInitScript(recordViolations);
    const page = await context.newPage();
    const messages: ConsoleEntry[] = [];
    page.on('console', (message) => messages.push({ type: message.type(), text: message.text() }));
    page.on('pageerror', (error) => messages.push({ type: 'pageerror', text: error.message }));
    await options.setup?.(page);
    const url = `${hostOrigin}${path}`;
    await page.goto(url);
    return {
      page,
      url,
      console: messages,
      violations: () => page.evaluate(() => (globalThis as unknown as PageGlobals).__cspViolations),
      async axe() {
        // page.evaluate is not the page's own script, so the policy does not stop it.
        await page.evaluate(AXE_SOURCE);
        const violations = await page.evaluate(async () => {
          const { axe, document } = globalThis as unknown as PageGlobals;
          const result = await axe.run(document, { resultTypes: ['violations'] });
          return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((node) => node.target) }));
        });
        return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
      },
      shadowLook: (tag, selector, properties) =>
        page.evaluate(
          ([tag, selector, properties]) => {
            const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
            const root = document.querySelector(tag)?.shadowRoot ?? null;
            const inner = root?.querySelector(selector) ?? null;
            const computed = inner ? getComputedStyle(inner) : null;
            const styles = Object.fromEntries(properties.map((property) => [property, computed ? computed[property] : '']));
            return { adoptedStyleSheets: root ? root.adoptedStyleSheets.length : null, styles };
          },
          [tag, selector, properties] as const,
        ),
      scrollWidth: () => page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth),
      async screenshot(name: string) {
        const dir = screenshotDir();
        mkdirSync(dir, { recursive: true });
        const file = join(dir, `${name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        return file;
      },
      close: () => context.close(),
    };
  }

  return {
    ...fixture,
    hostOrigin,
    cdn,
    base,
    openPage,
    async close() {
      await fixture.close();
      hostServer.closeAllConnections();
      await new Promise((resolve) => hostServer.close(resolve));
    },
  };
}
