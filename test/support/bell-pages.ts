import type { Page } from 'playwright-core';
import { type HostPage, type HostPageOptions, type ScriptsFixture, startScriptsFixture } from './browser-scripts';
import { userHashOf } from './notification-seed';
import type { SeededProject } from './test-app';

/**
 * The notification bell's browser suites (test/browser-scripts/bell*.browser.e2e-spec.ts): a
 * project on Indie (a 20 s poll interval) with a signing secret and one changelog broadcast, people
 * whose bells are seeded through the real API, host pages with the bell's script tag, and what the
 * tests read of those pages.
 */

export const BELL = 'launch-notifications';
export const TITLES = `${BELL} .title`;
export const MARKUP_TITLE = `<img src=x onerror="document.title='pwned'">Weekly summary`;

/**
 * Runs in each page before its scripts (an init script, outside the page's policy): records the
 * bell's window events, and each fetch with its (fake) time, and counts settled answers, so a test
 * knows when the bell has handled one before it moves the page's clock on. `prevent` makes the
 * click listener call preventDefault().
 */
export const INSTRUMENT = `(() => {
  const bell = (window.__bell = { events: [], calls: [], answers: 0, prevent: false });
  for (const type of ['service:notifications', 'service:notification-click']) {
    addEventListener(type, (event) => {
      bell.events.push({ type, detail: event.detail, cancelable: event.cancelable });
      if (bell.prevent) event.preventDefault();
    });
  }
  const json = Response.prototype.json;
  Response.prototype.json = function () {
    return json.call(this).finally(() => { bell.answers++; });
  };
  const realFetch = window.fetch;
  window.fetch = function (input, init) {
    bell.calls.push({ method: (init && init.method) || 'GET', url: String(input), at: Date.now() });
    return realFetch.call(this, input, init).catch((error) => { bell.answers++; throw error; });
  };
})();`;

/** The deepest focused element, through shadow roots: its aria-label or text (`#id` for the panel). */
const FOCUSED = `(() => {
  let node = document.activeElement;
  while (node && node.shadowRoot && node.shadowRoot.activeElement) node = node.shadowRoot.activeElement;
  if (!node) return null;
  return node.getAttribute('aria-label') || (node.getAttribute('role') === 'dialog' ? '#' + node.id : node.textContent.trim());
})()`;

export interface BellRecord {
  events: { type: string; detail: unknown; cancelable: boolean }[];
  calls: { method: string; url: string; at: number }[];
  answers: number;
}

export const record = (page: Page) => page.evaluate<BellRecord>('window.__bell');
export const focused = (page: Page) => page.evaluate<string | null>(FOCUSED);

/** Waits (in real time) until `check` holds. */
export async function eventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still not so after 10 s: ${check.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until the bell has handled `count` answers since the page loaded (its next timer is set by then). */
export const settled = (page: Page, count: number) => eventually(async () => (await record(page)).answers >= count);

/** The tab is hidden or shown, as the browser reports it when the visitor switches tabs. */
export const setVisibility = (page: Page, state: 'hidden' | 'visible') =>
  page.evaluate(
    `Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => '${state}' });
     document.dispatchEvent(new Event('visibilitychange'))`,
  );

/** Computed styles of the first element `selector` matches (locators pierce shadow roots). */
export const look = (page: Page, selector: string, properties: string[]) =>
  page
    .locator(selector)
    .first()
    .evaluate((node, names) => {
      const style = (globalThis as unknown as { getComputedStyle(node: unknown): Record<string, string> }).getComputedStyle(node);
      return Object.fromEntries(names.map((name) => [name, style[name]]));
    }, properties);

/** For `setup`: the page's clock stands still from load on, so its timers run only when the test moves it. */
export const pausedClock = (start: number) => async (page: Page) => {
  await page.clock.install({ time: start });
  await page.clock.pauseAt(start + 1000);
};

/** No policy violation, console error or page error so far. */
export async function expectClean(host: HostPage): Promise<void> {
  expect(await host.violations()).toEqual([]);
  expect(host.console.filter((entry) => entry.type === 'error' || entry.type === 'pageerror')).toEqual([]);
}

export interface BellFixture {
  scripts: ScriptsFixture;
  seeded: SeededProject;
  /** The title of the project's changelog entry, in every bell as a broadcast. */
  whatsNew: string;
  /** The `user_hash` of `userId` under the project's signing secret. */
  hashOf(userId: string): string;
  /** POST /v1/notifications with the secret key, 10 ms after the previous one (a stable order). */
  send(body: Record<string, unknown>): Promise<{ id: string }>;
  seedInbox(userId: string, plain?: boolean): Promise<SeededInbox>;
  /** A host page with the bell's script tag for `userId` (its real hash) and more `data-` settings. */
  bellPage(userId: string, data?: Record<string, string>, options?: Partial<HostPageOptions>): Promise<HostPage>;
  close(): Promise<void>;
}

export interface SeededInbox {
  old: { id: string };
  pinned: { id: string };
  invoice: { id: string };
  comment: { id: string };
  markup: { id: string } | null;
}

export async function startBellFixture(): Promise<BellFixture> {
  // Many pages within a minute, all from 127.0.0.1: the per-IP browser limit is not under test.
  const scripts = await startScriptsFixture({ env: { BROWSER_RATE_LIMIT: '100000' } });
  const { t } = scripts;
  const seeded = await t.seedProject({ plan: 'indie' });
  const secretKey = t.api.as(seeded.secretKey);
  const secret: string = (await secretKey.post('/v1/notifications/signing-secret').expect(201)).body.data.signing_secret;
  const entry = await secretKey
    .post('/v1/changelog/entries')
    .send({ title: 'Dark mode is here', body_markdown: 'Switch it on in **Settings**.', category: 'feature', notify_in_app: true })
    .expect(201);

  const send = async (body: Record<string, unknown>) => {
    t.clock.advance(10);
    return (await secretKey.post('/v1/notifications').send(body).expect(201)).body.data as { id: string };
  };

  /**
   * A person's bell: one archived, one pinned, an invoice with two buttons and data, a comment
   * (with the project's reactions unless `plain`) and, unless `plain`, a title and body of markup.
   * With the project's changelog broadcast: 5 unread (4 when plain).
   */
  async function seedInbox(userId: string, plain = false): Promise<SeededInbox> {
    const old = await send({ user_id: userId, title: 'Last month’s report', body: 'Archived already.' });
    await secretKey.patch(`/v1/notifications/${old.id}/archive`).send({ user_id: userId }).expect(200);
    const pinned = await send({
      user_id: userId,
      title: 'Maintenance on Sunday',
      body: 'Read-only from 02:00 to 03:00 UTC.',
      icon: 'warning',
      pinned: true,
    });
    const invoice = await send({
      user_id: userId,
      title: 'Invoice 1042 is ready',
      body: 'Your March invoice is ready to download.',
      icon: 'check',
      category: 'billing',
      action_url: `${scripts.hostOrigin}/billing/1042`,
      actions: [
        { label: 'Download', url: `${scripts.hostOrigin}/invoices/1042.pdf` },
        { label: 'Billing settings', url: '/settings/billing' },
      ],
      data: { invoice_id: 1042 },
    });
    const comment = await send({
      user_id: userId,
      title: 'Ben commented on “Launch plan”',
      body: 'Ship it on Monday?',
      category: 'team',
      ...(plain ? {} : { reactions: true }),
    });
    const markup = plain
      ? null
      : await send({ user_id: userId, title: MARKUP_TITLE, body: '<script>document.title="pwned"</script>12 new sign-ups.' });
    return { old, pinned, invoice, comment, markup };
  }

  const bellPage = (userId: string, data: Record<string, string> = {}, options: Partial<HostPageOptions> = {}) =>
    scripts.openPage({
      ...options,
      scripts: [
        {
          script: 'notifications',
          data: { key: seeded.publishableKey, 'user-id': userId, 'user-hash': userHashOf(userId, secret), ...data },
        },
      ],
      setup: async (page) => {
        await page.addInitScript({ content: INSTRUMENT });
        await options.setup?.(page);
      },
    });

  return {
    scripts,
    seeded,
    whatsNew: entry.body.data.title,
    hashOf: (userId) => userHashOf(userId, secret),
    send,
    seedInbox,
    bellPage,
    close: () => scripts.close(),
  };
}
