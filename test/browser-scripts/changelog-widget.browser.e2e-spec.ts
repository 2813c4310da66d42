import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page, Request } from 'playwright-core';
import { entryCounts } from '../support/engagement';
import { publishEntry } from '../support/changelog-seed';
import { type HostPage, type HostPageOptions, ScriptsFixture, screenshotDir, startScriptsFixture } from '../support/browser-scripts';
import { userHashOf } from '../support/notification-seed';
import type { SeededProject } from '../support/test-app';

const WIDGET = 'launch-changelog';
const TITLES = `${WIDGET} .entry h3`;
const FAILED_LOAD = /^Failed to load resource/;

/** The page's globals as the callbacks below use them (the test program has no DOM types). */
interface PageGlobals {
  document: {
    title: string;
    querySelector(selector: string): PageNode | null;
    querySelectorAll(selector: string): ArrayLike<PageNode>;
    activeElement: PageNode | null;
  };
  localStorage: { length: number; key(index: number): string | null; getItem(key: string): string | null };
  addEventListener(type: string, listener: (event: { type: string; detail: unknown; preventDefault(): void }) => void): void;
  __events: { type: string; detail: unknown }[];
}
interface PageNode {
  localName: string;
  shadowRoot: { querySelectorAll(selector: string): ArrayLike<PageNode>; activeElement: PageNode | null } | null;
  nextElementSibling: PageNode | null;
  textContent: string | null;
}

/** Records the widget's `service:changelog…` events in `window.__events`; cancels clicks so no page is left. */
function recordEvents(): void {
  const page = globalThis as unknown as PageGlobals;
  page.__events = [];
  for (const type of ['service:changelog', 'service:changelog-click', 'service:changelog-reaction', 'service:changelog-subscribe']) {
    page.addEventListener(type, (event) => {
      page.__events.push({ type: event.type, detail: event.detail });
      if (type === 'service:changelog-click') event.preventDefault();
    });
  }
}

const events = (page: Page) => page.evaluate(() => (globalThis as unknown as PageGlobals).__events);

/** Console messages that are not plain logs, apart from the images of example hosts that cannot load here. */
const problems = (host: HostPage) =>
  host.console.filter((entry) => !['log', 'debug'].includes(entry.type) && !FAILED_LOAD.test(entry.text));

/** Waits until `check` holds (polling every 100 ms, 10 s at most). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 100; tries += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the condition did not hold within 10 s');
}

/** The attribute `names` of every element `locator` matches, in order (several names: of its one element). */
async function attributes(locator: Locator, ...names: string[]): Promise<(string | null)[]> {
  if (names.length > 1) return Promise.all(names.map((name) => locator.getAttribute(name)));
  return Promise.all((await locator.all()).map((element) => element.getAttribute(names[0])));
}

/** Calls of the widget API a page made, as `METHOD path?query`, with their JSON bodies. */
function widgetCalls(page: Page): { line: string; body: unknown; hash: string | undefined }[] {
  const calls: { line: string; body: unknown; hash: string | undefined }[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/v1/changelog/')) return;
    if (request.method() === 'OPTIONS') return;
    calls.push({
      line: `${request.method()} ${url.pathname}${url.search}`,
      body: request.postData() ? request.postDataJSON() : undefined,
      hash: request.headers()['x-service-user-hash'],
    });
  });
  return calls;
}

/**
 * The changelog widget (`/v1/changelog.js`) on a customer's page from another site under the strict
 * policy: what the widget API answers, rendered as text, with its reactions, button, announcement,
 * New badges, subscribe form and counts, in both themes, at 375 px and from the keyboard.
 */
describe('the changelog widget', () => {
  let fixture: ScriptsFixture;
  let acme: SeededProject;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // Every page of this suite calls from 127.0.0.1: more than the per-address limit of a minute.
    fixture = await startScriptsFixture({ env: { BROWSER_RATE_LIMIT: '10000' } });
    const { t } = fixture;
    acme = await t.seedProject({ plan: 'indie', name: 'Acme' });
    await t.api.as(acme.secretKey).post('/v1/changelog/labels').send({ name: 'API', slug: 'api', colour: 'blue' }).expect(201);
    await t.api.as(acme.secretKey).post('/v1/changelog/labels').send({ name: 'Design', slug: 'design', colour: 'pink' }).expect(201);
    ids.pinned = await publishEntry(t, acme.secretKey, {
      title: 'Status page',
      pinned: true,
      category: 'improvement',
      body_markdown: 'Incidents and maintenance, live, at one address.',
    });
    ids.oldest = await publishEntry(t, acme.secretKey, { title: 'Left out by the limit' });
    ids.exports = await publishEntry(t, acme.secretKey, {
      title: 'Faster exports',
      category: 'improvement',
      labels: ['api'],
      body_markdown: [
        'Exports run **twice as fast**; see [the docs](https://docs.example/exports).',
        '',
        '| Format | Speed |',
        '|:-------|------:|',
        '| CSV    |    2x |',
        '',
        '```',
        'GET /v1/exports',
        '```',
        '',
        '![Chart](https://images.example/chart.png)',
      ].join('\n'),
    });
    ids.hostile = await publishEntry(t, acme.secretKey, {
      title: '<img src=x onerror="document.title=\'pwned\'">Imports',
      category: 'fix',
    });
    ids.darkMode = await publishEntry(t, acme.secretKey, {
      title: 'Dark mode',
      version: '2.4.0',
      labels: ['design'],
      body_markdown: 'The dashboard now follows your system theme.',
      cta_label: 'Try it',
      cta_url: '/settings/theme',
    });
    ids.newest = await publishEntry(t, acme.secretKey, {
      title: 'Webhooks retry',
      category: 'fix',
      body_markdown: 'A failed delivery is tried five more times over six hours.',
    });
  });
  afterAll(() => fixture?.close());

  const entry = (page: Page, title: string) => page.locator(`${WIDGET} .entry`, { has: page.locator('h3', { hasText: title }) });

  /** Runs `action` (a reload) and waits until the list shows and the widget reported it seen. */
  const loaded = async (page: Page, action: () => Promise<unknown>) => {
    const seen = page.waitForResponse((response) => response.url().endsWith('/v1/changelog/widget/seen'));
    await action();
    await page.locator(TITLES).first().waitFor();
    await seen;
  };

  /** The host page reloaded with the widget's events recorded from the start. */
  const withEvents = async (host: HostPage) => {
    await host.page.context().addInitScript(recordEvents);
    await loaded(host.page, () => host.page.reload());
  };

  /** A host page with Acme's widget; `data` adds or replaces attributes of the script tag. */
  const open = (options: Partial<HostPageOptions> & { data?: Record<string, string> } = {}) => {
    const { data, ...rest } = options;
    return fixture.openPage({ scripts: [{ script: 'changelog', data: { key: acme.publishableKey, ...data } }], ...rest });
  };

  it('lists pinned first within data-limit, with labels, button, sanitised body, View all and subscribe form, all as text', async () => {
    const host = await open({ viewport: { width: 480, height: 900 } });
    try {
      const { page } = host;
      await page.locator(TITLES).first().waitFor();
      // The default limit, 5, with the pinned entry first and counted: the oldest one is left out.
      expect(await page.locator(TITLES).allTextContents()).toEqual([
        'Status page',
        'Webhooks retry',
        'Dark mode',
        '<img src=x onerror="document.title=\'pwned\'">Imports',
        'Faster exports',
      ]);
      expect(await entry(page, 'Status page').locator('.meta').textContent()).toMatch(/^PinnedImprovement\w{3} \d{1,2}, \d{4}$/);
      expect(await entry(page, 'Dark mode').locator('.meta .version').textContent()).toBe('2.4.0');
      expect(await entry(page, 'Dark mode').locator('.labels li').allTextContents()).toEqual(['Design']);
      expect(await entry(page, 'Dark mode').locator('h3 a').getAttribute('href')).toBe(
        `${fixture.base}/changelog/${acme.project.slug}/${ids.darkMode}`,
      );
      expect(await entry(page, 'Dark mode').locator('a.cta').getAttribute('href')).toBe(`${fixture.hostOrigin}/settings/theme`);
      expect(await page.locator(`${WIDGET} header a`).getAttribute('href')).toBe(`${fixture.base}/changelog/${acme.project.slug}`);
      expect(await attributes(entry(page, 'Dark mode').locator('.reaction'), 'aria-label')).toEqual(['Like', 'Celebrate', 'Dislike']);

      // The hostile title stayed text: no element was made from it and nothing ran.
      expect(await page.locator(`${WIDGET} h3 img`).count()).toBe(0);
      expect(await page.title()).toBe('Host page');
      // The body: the server's sanitised HTML, rebuilt from allowed elements only.
      const body = entry(page, 'Faster exports').locator('.body');
      expect(await body.locator('strong').textContent()).toBe('twice as fast');
      expect(await attributes(body.locator('a'), 'href', 'rel', 'target')).toEqual([
        'https://docs.example/exports',
        'nofollow noopener noreferrer',
        '_blank',
      ]);
      expect(await body.locator('td.align-right').textContent()).toBe('2x');
      expect(await body.locator('pre').getAttribute('tabindex')).toBe('0');
      expect(await attributes(body.locator('img'), 'src', 'alt')).toEqual(['https://images.example/chart.png', 'Chart']);
      const inlineStyles = await page.evaluate(() => {
        const root = (globalThis as unknown as PageGlobals).document.querySelector('launch-changelog')?.shadowRoot;
        return root ? root.querySelectorAll('[style]').length : -1;
      });
      expect(inlineStyles).toBe(0);

      expect(await page.getByLabel('Get updates by email').getAttribute('type')).toBe('email');
      expect(await page.locator(`${WIDGET} .powered`).count()).toBe(0);
      expect(await host.violations()).toEqual([]);
      expect(problems(host)).toEqual([]);
      expect(await host.axe()).toEqual([]);
      await host.screenshot('changelog-widget-light');
    } finally {
      await host.close();
    }
  });

  it('keeps one reaction per browser by its client_id, counts button presses and views, and tells the page', async () => {
    const { t } = fixture;
    const before = await entryCounts(t, ids.darkMode);
    const host = await open();
    try {
      const { page } = host;
      // The first load reported its view before the page loads again (openPage waits for `load` only).
      await eventually(async () => (await entryCounts(t, ids.darkMode)).widgetViews > before.widgetViews);
      await withEvents(host);
      const calls = widgetCalls(page);
      const darkMode = entry(page, 'Dark mode');
      const reaction = (label: string, pressed: boolean) =>
        darkMode.locator(`.reaction[aria-label="${label}"][aria-pressed="${pressed}"]`).waitFor();

      await darkMode.getByRole('button', { name: 'Like', exact: true }).click();
      await reaction('Like (1)', true);
      await darkMode.getByRole('button', { name: 'Celebrate', exact: true }).click();
      await reaction('Celebrate (1)', true);
      await reaction('Like', false);
      await darkMode.getByRole('button', { name: 'Celebrate (1)' }).click();
      await reaction('Celebrate', false);
      await darkMode.getByRole('button', { name: 'Like', exact: true }).click();
      await reaction('Like (1)', true);

      const clientId = await page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.getItem('launch-changelog:client-id'));
      expect(clientId).toMatch(/^[\w-]{22}$/);
      const path = `/v1/changelog/widget/entries/${ids.darkMode}/reactions`;
      expect(calls.filter((call) => call.line.endsWith('/reactions')).map(({ line, body }) => [line, body])).toEqual([
        [`POST ${path}`, { client_id: clientId, reaction: 'like' }],
        [`POST ${path}`, { client_id: clientId, reaction: 'celebrate' }],
        [`DELETE ${path}`, { client_id: clientId, reaction: 'celebrate' }],
        [`POST ${path}`, { client_id: clientId, reaction: 'like' }],
      ]);

      // The button: counted, announced to the page, which may take over the navigation (it does here).
      const click = page.waitForResponse((response) => response.url().endsWith(`/entries/${ids.darkMode}/click`));
      await darkMode.getByRole('link', { name: 'Try it' }).click();
      expect((await click).status()).toBe(200);
      expect(page.url()).toBe(host.url);
      expect(await events(page)).toEqual([
        { type: 'service:changelog', detail: { unseen_count: 0 } },
        ...['like', 'celebrate', null, 'like'].map((name) => ({
          type: 'service:changelog-reaction',
          detail: { id: ids.darkMode, reaction: name },
        })),
        { type: 'service:changelog-click', detail: { id: ids.darkMode, label: 'Try it', url: '/settings/theme' } },
      ]);

      // The same browser later: its reaction is still its own.
      await loaded(page, () => page.reload());
      await reaction('Like (1)', true);
      expect(await entryCounts(t, ids.darkMode)).toEqual({
        ...before,
        widgetViews: before.widgetViews + 3,
        ctaClicks: before.ctaClicks + 1,
        // This browser's first visit only.
        anonymousReaders: before.anonymousReaders + 1,
      });
      expect(await host.violations()).toEqual([]);
    } finally {
      await host.close();
    }

    // The guide's picture: three entries, the newest one New since a visit just before it.
    const answer = await t.api.as(acme.publishableKey).get('/v1/changelog/widget/entries?limit=3').expect(200);
    const readme = await open({ viewport: { width: 440, height: 800 }, data: { limit: '3', 'show-badge': '' } });
    try {
      await readme.page
        .context()
        .addInitScript(
          ([name, value]) =>
            (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(name, value),
          [
            `launch-changelog:project:${fixture.base}/changelog/${acme.project.slug}`,
            JSON.stringify({ visit: answer.body.data.entries[1].published_at }),
          ],
        );
      await loaded(readme.page, () => readme.page.reload());
      expect(await readme.page.locator(`${WIDGET} .new`).count()).toBe(1);
      await readme.page.locator(WIDGET).screenshot({ path: join(screenshotDir(), 'changelog-widget.png') });
    } finally {
      await readme.close();
    }
  });

  it('badges entries published since the last visit: none on a first visit, and none without data-show-badge', async () => {
    const { t } = fixture;
    const news = await t.seedProject({ plan: 'indie', name: 'News' });
    const older = await publishEntry(t, news.secretKey, { title: 'Older' });
    const host = await fixture.openPage({ scripts: [{ script: 'changelog', data: { key: news.publishableKey, 'show-badge': '' } }] });
    try {
      const { page } = host;
      // The first visit reported the entry new to this browser before the page loads again.
      await eventually(async () => (await entryCounts(t, older)).anonymousReaders === 1);
      const calls = widgetCalls(page);
      await withEvents(host);
      expect(await page.locator(`${WIDGET} .new`).count()).toBe(0);
      const newer = await publishEntry(t, news.secretKey, { title: 'Newer' });
      await loaded(page, () => page.reload());
      expect(await page.locator(`${WIDGET} .new`).allTextContents()).toEqual(['New']);
      expect(await entry(page, 'Newer').locator('.new').count()).toBe(1);
      expect(await events(page)).toEqual([{ type: 'service:changelog', detail: { unseen_count: 1 } }]);
      // First reads of this browser: everything on its first visit (before `calls` listened), then what is new since.
      const seen = calls.filter((call) => call.line === 'POST /v1/changelog/widget/seen').map((call) => call.body);
      expect(seen).toEqual([
        { client_id: expect.any(String), entry_ids: [older], first_time_ids: [] },
        { client_id: expect.any(String), entry_ids: [newer, older], first_time_ids: [newer] },
      ]);
      expect([(await entryCounts(t, older)).anonymousReaders, (await entryCounts(t, newer)).anonymousReaders]).toEqual([1, 1]);
      const stored = await page.evaluate(
        (name) => (globalThis as unknown as PageGlobals).localStorage.getItem(name),
        `launch-changelog:project:${fixture.base}/changelog/${news.project.slug}`,
      );
      expect(JSON.parse(stored ?? '{}')).toEqual({ visit: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    } finally {
      await host.close();
    }

    // The same kind of browser, with a visit long ago, without data-show-badge: no badge, the count still told.
    const plain = await fixture.openPage({ scripts: [{ script: 'changelog', data: { key: news.publishableKey } }] });
    try {
      await plain.page
        .context()
        .addInitScript(
          ([name, value]) =>
            (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(name, value),
          [`launch-changelog:project:${fixture.base}/changelog/${news.project.slug}`, JSON.stringify({ visit: '2020-01-01T00:00:00Z' })],
        );
      await withEvents(plain);
      expect(await plain.page.locator(`${WIDGET} .new`).count()).toBe(0);
      expect(await events(plain.page)).toEqual([{ type: 'service:changelog', detail: { unseen_count: 2 } }]);
    } finally {
      await plain.close();
    }
  });

  it("uses a signed-in person's seen state with data-user-id and data-user-hash, and never falls back from a wrong hash", async () => {
    const { t } = fixture;
    const team = await t.seedProject({ plan: 'indie', name: 'Team' });
    const first = await publishEntry(t, team.secretKey, { title: 'First' });
    const second = await publishEntry(t, team.secretKey, { title: 'Second' });
    const secret = await t.api.as(team.secretKey).post('/v1/notifications/signing-secret').expect(201);
    const userHash = userHashOf('user-7', secret.body.data.signing_secret);
    const signedIn = { key: team.publishableKey, 'user-id': 'user-7', 'user-hash': userHash, 'show-badge': 'true' };

    const host = await fixture.openPage({ scripts: [{ script: 'changelog', data: signedIn }] });
    try {
      const { page } = host;
      await page.locator(TITLES).first().waitFor();
      expect(await page.locator(`${WIDGET} .new`).count()).toBe(2);
      // Shown, so seen by this person: on this device and every other, the badges are gone.
      await eventually(async () => {
        const res = await t.api
          .as(team.publishableKey)
          .get('/v1/changelog/widget/unseen?user_id=user-7')
          .set('X-Service-User-Hash', userHash)
          .expect(200);
        return res.body.data.unseen_count === 0;
      });
      const calls = widgetCalls(page);
      await loaded(page, () => page.reload());
      expect(await page.locator(`${WIDGET} .new`).count()).toBe(0);
      expect(calls.map(({ line, body, hash }) => [line, body, hash])).toEqual([
        ['GET /v1/changelog/widget/entries?limit=5&user_id=user-7', undefined, userHash],
        ['POST /v1/changelog/widget/seen', { user_id: 'user-7', entry_ids: [second, first], first_time_ids: [] }, userHash],
      ]);
    } finally {
      await host.close();
    }

    const wrong = await fixture.openPage({ scripts: [{ script: 'changelog', data: { ...signedIn, 'user-hash': 'f'.repeat(64) } }] });
    try {
      await wrong.page.locator(`${WIDGET} .status`, { hasText: 'Updates are unavailable right now.' }).waitFor();
      expect(await wrong.page.locator(TITLES).count()).toBe(0);
      expect(wrong.console).toContainEqual({
        type: 'warning',
        text: 'launch-changelog: USER_HASH_INVALID: user_hash does not match user_id.',
      });
    } finally {
      await wrong.close();
    }

    const half = await fixture.openPage({ scripts: [{ script: 'changelog', data: { key: team.publishableKey, 'user-id': 'user-7' } }] });
    try {
      await half.page.locator(TITLES).first().waitFor();
      expect(half.console).toContainEqual({
        type: 'warning',
        text: 'launch-changelog: data-user-id and data-user-hash go together; showing what a visitor who is not signed in sees.',
      });
    } finally {
      await half.close();
    }
  });

  it('shows the announcement once per person: a modal dialog, then a banner and a toast, each closed from the keyboard', async () => {
    const { t } = fixture;
    const launch = await t.seedProject({ plan: 'indie', name: 'Launch' });
    const until = new Date(t.clock.now().getTime() + 7 * 86_400_000).toISOString();
    const id = await publishEntry(t, launch.secretKey, {
      title: 'Launch week',
      body_markdown: 'Five days of **new things**.',
      cta_label: 'See the schedule',
      cta_url: 'https://launch.example/week',
      announcement: { style: 'modal', until },
    });
    const secret = await t.api.as(launch.secretKey).post('/v1/notifications/signing-secret').expect(201);
    const person = { key: launch.publishableKey, 'user-id': 'ada', 'user-hash': userHashOf('ada', secret.body.data.signing_secret) };
    const dialogOf = (page: Page) => page.getByRole('dialog', { name: 'Launch week' });
    // The widget said it showed the entry to this person (POST …/seen) as it opened the dialog.
    const untilNotAnnounced = () =>
      eventually(async () => {
        const res = await t.api
          .as(launch.publishableKey)
          .get('/v1/changelog/widget/announcement?user_id=ada')
          .set('X-Service-User-Hash', person['user-hash'])
          .expect(200);
        return res.body.data.announcement === null;
      });

    const host = await fixture.openPage({ scripts: [{ script: 'changelog', data: { key: launch.publishableKey } }] });
    try {
      const { page } = host;
      await dialogOf(page).waitFor();
      expect(await page.locator(`${WIDGET} dialog button:focus`).textContent()).toBe('Close');
      expect(await dialogOf(page).locator('strong').textContent()).toBe('new things');
      expect(await host.axe()).toEqual([]);
      await host.screenshot('changelog-widget-announcement');
      await page.keyboard.press('Escape');
      await dialogOf(page).waitFor({ state: 'detached' });
      expect(await host.axe()).toEqual([]);
      // This browser keeps the once key: not again.
      await loaded(page, () => page.reload());
      expect(await page.locator(`${WIDGET} dialog`).count()).toBe(0);
      const stored = await page.evaluate(
        (name) => (globalThis as unknown as PageGlobals).localStorage.getItem(name),
        `launch-changelog:project:${fixture.base}/changelog/${launch.project.slug}`,
      );
      expect(JSON.parse(stored ?? '{}').announced).toEqual([`ann_${id}`]);
      expect(await host.violations()).toEqual([]);
    } finally {
      await host.close();
    }

    // A signed-in person: shown once, then never again on any device.
    for (const shown of [true, false]) {
      const device = await fixture.openPage({ scripts: [{ script: 'changelog', data: person }] });
      try {
        await device.page.locator(TITLES).first().waitFor();
        if (shown) {
          await dialogOf(device.page).waitFor();
          await device.page.keyboard.press('Enter');
          await dialogOf(device.page).waitFor({ state: 'detached' });
          await untilNotAnnounced();
        } else {
          expect(await device.page.locator(`${WIDGET} dialog`).count()).toBe(0);
        }
      } finally {
        await device.close();
      }
    }

    await t.api
      .as(launch.secretKey)
      .patch(`/v1/changelog/entries/${id}`)
      .send({ announcement: { style: 'banner', until } })
      .expect(200);
    const banner = await fixture.openPage({ scripts: [{ script: 'changelog', data: { key: launch.publishableKey } }] });
    try {
      const { page } = banner;
      const region = page.getByRole('region', { name: 'Announcement' });
      await region.waitFor();
      expect(await region.locator('.headline').textContent()).toBe('Launch week');
      expect(await region.getByRole('link', { name: 'See the schedule' }).getAttribute('href')).toBe('https://launch.example/week');
      await region.getByRole('button', { name: 'Dismiss' }).focus();
      await page.keyboard.press('Enter');
      await region.waitFor({ state: 'detached' });
      expect(await page.locator(`${WIDGET} h2:focus`).textContent()).toBe("What's new");
      expect(await banner.axe()).toEqual([]);
    } finally {
      await banner.close();
    }

    await t.api
      .as(launch.secretKey)
      .patch(`/v1/changelog/entries/${id}`)
      .send({ announcement: { style: 'toast', until } })
      .expect(200);
    const toast = await fixture.openPage({ scripts: [{ script: 'changelog', data: { key: launch.publishableKey } }] });
    try {
      await toast.page.getByRole('region', { name: 'Announcement' }).waitFor();
      expect((await toast.shadowLook(WIDGET, '.toast', ['position'])).styles).toEqual({ position: 'fixed' });
      expect(await toast.violations()).toEqual([]);
    } finally {
      await toast.close();
    }
  });

  it('subscribes an email with the publishable key: a confirmation email first, "already subscribed" the second time', async () => {
    const { t } = fixture;
    const host = await open();
    try {
      const { page } = host;
      await page.locator(TITLES).first().waitFor();
      await withEvents(host);
      const email = page.getByLabel('Get updates by email');
      const note = page.locator(`${WIDGET} .subscribe .note`);
      await email.fill('grace@example.com');
      await email.press('Enter');
      await note.filter({ hasText: 'Almost done: check your inbox and confirm your subscription.' }).waitFor();
      const rows = await t.db.manager.query('SELECT email, confirmed FROM changelog_subscribers WHERE project_id = $1', [acme.project.id]);
      expect(rows).toEqual([{ email: 'grace@example.com', confirmed: false }]);
      await email.fill('Grace@example.com');
      await page.locator(`${WIDGET} .subscribe button`).click();
      await note.filter({ hasText: 'This address is already subscribed.' }).waitFor();
      expect((await events(page)).filter((event) => event.type === 'service:changelog-subscribe')).toEqual([
        { type: 'service:changelog-subscribe', detail: { status: 'confirmation_sent' } },
        { type: 'service:changelog-subscribe', detail: { status: 'already_subscribed' } },
      ]);
      expect(await host.violations()).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it("renders into every <launch-changelog> (each element's data- attributes winning), else right after its script tag", async () => {
    const both = await fixture.openPage({
      body: '<launch-changelog data-limit="1"></launch-changelog><p>Between</p><launch-changelog data-theme="dark"></launch-changelog>',
      scripts: [{ script: 'changelog', data: { key: acme.publishableKey, limit: '2' } }],
    });
    try {
      const { page } = both;
      const widgets = page.locator(WIDGET);
      await widgets.nth(1).locator('.entry h3').first().waitFor();
      await widgets.nth(0).locator('.entry h3').first().waitFor();
      expect(await widgets.count()).toBe(2);
      expect(await widgets.nth(0).locator('.entry h3').allTextContents()).toEqual(['Status page']);
      expect(await widgets.nth(1).locator('.entry h3').allTextContents()).toEqual(['Status page', 'Webhooks retry']);
      const background = (index: number) =>
        widgets
          .nth(index)
          .locator('section')
          .evaluate(
            (node) =>
              (globalThis as unknown as { getComputedStyle(n: unknown): { backgroundColor: string } }).getComputedStyle(node)
                .backgroundColor,
          );
      expect([await background(0), await background(1)]).toEqual(['rgb(255, 255, 255)', 'rgb(17, 24, 39)']);
      expect(await both.violations()).toEqual([]);
    } finally {
      await both.close();
    }

    const after = await fixture.openPage({
      body: '<p>Before</p>',
      scripts: [{ script: 'changelog', data: { key: acme.publishableKey, limit: '51', theme: 'sepia', 'show-badge': 'maybe' } }],
    });
    try {
      const { page } = after;
      await page.locator(TITLES).first().waitFor();
      const next = await page.evaluate(
        () =>
          (globalThis as unknown as PageGlobals).document.querySelector('script[src$="/v1/changelog.js"]')?.nextElementSibling?.localName,
      );
      expect(next).toBe('launch-changelog');
      // Bad values keep their defaults (5 entries, auto theme, no badge), each said once.
      expect(await page.locator(TITLES).count()).toBe(5);
      expect(after.console.filter((entry) => entry.type === 'warning').map((entry) => entry.text)).toEqual([
        'launch-changelog: data-theme "sepia" is not valid; using "auto".',
        'launch-changelog: data-limit "51" is not valid; using 5.',
        'launch-changelog: data-show-badge "maybe" is not valid; using false.',
      ]);
    } finally {
      await after.close();
    }

    const keyless = await fixture.openPage({ scripts: [{ script: 'changelog' }] });
    try {
      await keyless.page.locator(`${WIDGET} .status`, { hasText: 'The changelog is not set up on this page.' }).waitFor();
      expect(keyless.console).toEqual([{ type: 'error', text: 'launch-changelog: data-key is required on the script tag.' }]);
    } finally {
      await keyless.close();
    }
  });

  it('shows the "Powered by" badge on Free and follows dark mode at 375 px without sideways scrolling', async () => {
    const { t } = fixture;
    const small = await t.seedProject({ plan: 'free', name: 'Small' });
    await publishEntry(t, small.secretKey, {
      title: 'A wide table and a long link',
      body_markdown: `| ${Array.from({ length: 12 }, (_, i) => `Column ${i}`).join(' | ')} |\n|${'---|'.repeat(12)}\n| ${'x | '.repeat(12)}\n\nhttps://example.com/${'very-long-path-'.repeat(12)}`,
    });
    const host = await fixture.openPage({
      scripts: [{ script: 'changelog', data: { key: small.publishableKey } }],
      viewport: { width: 375, height: 700 },
      colorScheme: 'dark',
    });
    try {
      const { page } = host;
      await page.locator(TITLES).first().waitFor();
      expect(await page.locator(`${WIDGET} .powered`).textContent()).toBe('Powered by Launch Service');
      expect((await host.shadowLook(WIDGET, 'section', ['backgroundColor'])).styles.backgroundColor).toBe('rgb(17, 24, 39)');
      expect(await host.scrollWidth()).toBeLessThanOrEqual(375);
      expect(await host.violations()).toEqual([]);
      expect(problems(host)).toEqual([]);
      expect(await host.axe()).toEqual([]);
      await host.screenshot('changelog-widget-dark-375');
    } finally {
      await host.close();
    }
  });

  it('works from the keyboard alone: Tab reaches each control in order, Space reacts, Enter subscribes', async () => {
    const host = await open();
    try {
      const { page } = host;
      await page.locator(TITLES).first().waitFor();
      const focused = () =>
        page.evaluate(() => {
          const { document } = globalThis as unknown as PageGlobals;
          const node = document.querySelector('launch-changelog')?.shadowRoot?.activeElement as unknown as
            (PageNode & { getAttribute(name: string): string | null }) | null;
          return node ? `${node.localName} ${node.getAttribute('aria-label') ?? node.textContent}` : null;
        });
      const order: (string | null)[] = [];
      for (let press = 0; press < 8; press += 1) {
        await page.keyboard.press('Tab');
        order.push(await focused());
      }
      expect(order).toEqual([
        'a View all',
        'a Status page',
        'button Like',
        'button Celebrate',
        'button Dislike',
        'a Webhooks retry',
        'button Like',
        'button Celebrate',
      ]);
      const ring = await host.shadowLook(WIDGET, '.reaction:focus-visible', ['outlineStyle', 'outlineWidth']);
      expect(ring.styles).toEqual({ outlineStyle: 'solid', outlineWidth: '2px' });
      await page.keyboard.press('Space');
      await entry(page, 'Webhooks retry').locator('.reaction[aria-label="Celebrate (1)"][aria-pressed="true"]').waitFor();

      // On to the form: Tab until the email field has focus, type, Enter.
      for (let press = 0; press < 40 && (await focused()) !== 'input '; press += 1) await page.keyboard.press('Tab');
      await page.keyboard.type('keys@example.com');
      await page.keyboard.press('Enter');
      await page.locator(`${WIDGET} .note`, { hasText: 'Almost done' }).waitFor();
      expect(await host.violations()).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('works on a page with only the guide’s snippet (example values replaced)', async () => {
    const guide = readFileSync(join(__dirname, '..', '..', 'docs', 'browser-scripts.md'), 'utf8');
    const snippet = /```html\n([\s\S]*?)```/.exec(guide.slice(guide.indexOf('## Embed the changelog')))![1];
    expect(snippet).toContain('<launch-changelog></launch-changelog>');
    const html = snippet.replace('https://launch.example.com', fixture.cdn).replace('svc_pub_live_…', acme.publishableKey);
    const host = await fixture.openPage({ scripts: [], body: html });
    try {
      await host.page.locator(TITLES, { hasText: 'Webhooks retry' }).waitFor();
      expect(await host.page.locator(TITLES).count()).toBe(5);
      expect(await host.violations()).toEqual([]);
      expect(problems(host)).toEqual([]);
    } finally {
      await host.close();
    }
  });
});
