import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
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

/** A test app listening on a loopback port and a headless Chromium to visit it. */
export async function startAppWithBrowser(): Promise<BrowserFixture> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const t = await TestApp.start();
  await t.app.listen(0, '127.0.0.1');
  const origin = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
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
