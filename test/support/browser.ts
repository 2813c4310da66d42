import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { Browser, chromium } from 'playwright-core';
import { TestApp } from './test-app';

// Debian's chromium; .ci/run installs it (`apt-get install -y chromium`).
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserFixture {
  t: TestApp;
  /** Where the app listens, such as http://127.0.0.1:40123. */
  origin: string;
  browser: Browser;
  close(): Promise<void>;
}

export interface BrowserFixtureOptions {
  /**
   * PUBLIC_BASE_URL is the address the app listens on (instead of https://launch.test), for pages
   * that call the API at that URL, such as Swagger UI's "Try it out".
   */
  publicBaseUrlIsOrigin?: boolean;
  /** Extra environment variables of the app. */
  env?: Record<string, string>;
  /** Hostnames the browser resolves to 127.0.0.1 (custom domains), reached on the app's port. */
  loopbackHosts?: string[];
}

/** A free loopback port, to configure the app with its own address before it listens. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A test app listening on a loopback port and a headless Chromium to visit it. */
export async function startAppWithBrowser(options: BrowserFixtureOptions = {}): Promise<BrowserFixture> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const port = options.publicBaseUrlIsOrigin ? await freePort() : 0;
  const t = await TestApp.start({ env: { ...(port ? { PUBLIC_BASE_URL: `http://127.0.0.1:${port}` } : {}), ...options.env } });
  await t.app.listen(port, '127.0.0.1');
  const origin = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  const hostRules = (options.loopbackHosts ?? []).map((host) => `MAP ${host} 127.0.0.1`).join(',');
  const args = hostRules ? [...CHROMIUM_ARGS, `--host-resolver-rules=${hostRules}`] : CHROMIUM_ARGS;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args, headless: true });
  return {
    t,
    origin,
    browser,
    async close() {
      await browser.close();
      await t.close();
    },
  };
}
