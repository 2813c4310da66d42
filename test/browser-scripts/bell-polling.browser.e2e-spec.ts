import {
  BELL,
  type BellFixture,
  MARKUP_TITLE,
  TITLES,
  expectClean,
  eventually,
  pausedClock,
  record,
  setVisibility,
  settled,
  startBellFixture,
} from '../support/bell-pages';
import type { ScriptsFixture } from '../support/browser-scripts';
import { receiptOf } from '../support/notification-seed';

/**
 * The notification bell's contract with the page and the API, with the page's clock under the
 * test's control (page.clock) and answers it cannot get from the server made by page.route: both
 * window events, every method, the poll interval, visibility, 429, network errors and 403.
 */
describe('the notification bell (notifications.js): events, methods and polling', () => {
  let bell: BellFixture;
  let fixture: ScriptsFixture;

  beforeAll(async () => {
    bell = await startBellFixture();
    fixture = bell.scripts;
  });
  afterAll(() => bell?.close());

  const seedInbox = (userId: string, plain = false) => bell.seedInbox(userId, plain);
  const bellPage: BellFixture['bellPage'] = (...args) => bell.bellPage(...args);
  const send = (body: Record<string, unknown>) => bell.send(body);

  it('fires both window events, offers every method, and shows titles of markup as text', async () => {
    const { invoice } = await seedInbox('eve');
    const host = await bellPage('eve', {}, { setup: pausedClock(Date.now()) });
    try {
      const { page } = host;
      const events = async () => (await record(page)).events;
      const bell = (call: string) => page.evaluate(`window.launchNotifications.${call}`);
      await settled(page, 1);
      expect(await events()).toEqual([{ type: 'service:notifications', detail: { unread_count: 5 }, cancelable: false }]);
      expect(await page.evaluate(`window.launchNotifications === document.querySelector('${BELL}')`)).toBe(true);

      // refresh() asks at once; the event fires on a change only.
      await send({ user_id: 'eve', title: 'One more', body: 'Fresh.' });
      await bell('refresh()');
      await settled(page, 2);
      await bell('refresh()');
      await settled(page, 3);
      expect((await events()).map((event) => event.detail)).toEqual([{ unread_count: 5 }, { unread_count: 6 }]);

      const panel = page.locator(`${BELL} #panel`);
      await bell('open()');
      await page.locator(TITLES, { hasText: 'Weekly summary' }).waitFor();
      expect(await page.getByRole('button', { name: 'Notifications, 6 unread' }).getAttribute('aria-expanded')).toBe('true');
      // Markup from the API stays text: no element was made of it and nothing ran.
      const item = page.locator(`${BELL} li`, { hasText: 'Weekly summary' });
      expect(await item.locator('.title').textContent()).toBe(`${MARKUP_TITLE}, unread`);
      expect(await item.locator('.body').textContent()).toBe('<script>document.title="pwned"</script>12 new sign-ups.');
      expect(await page.locator(`${BELL} img, ${BELL} script`).count()).toBe(0);
      expect(await page.title()).toBe('Host page');
      await bell('close()');
      expect(await panel.isHidden()).toBe(true);
      await bell('toggle()');
      expect(await panel.isVisible()).toBe(true);
      await bell('toggle()');
      expect(await panel.isHidden()).toBe(true);

      // service:notification-click: cancelable; preventDefault() keeps the page where it is.
      await page.evaluate('window.__bell.prevent = true');
      await bell('open()');
      await page.locator(TITLES, { hasText: 'Invoice 1042' }).click();
      await eventually(async () => (await receiptOf(fixture.t, invoice.id, 'eve'))?.clickedAt != null);
      // The click read it: the count's change is an event too.
      await eventually(async () => (await events()).length === 4);
      expect((await events()).at(-1)).toEqual({ type: 'service:notifications', detail: { unread_count: 5 }, cancelable: false });
      await bell('open()');
      await page.locator(`${BELL} .action`, { hasText: 'Download' }).click();
      const clicks = (await events()).filter((event) => event.type === 'service:notification-click');
      expect(clicks).toEqual([
        {
          type: 'service:notification-click',
          detail: { id: invoice.id, category: 'billing', action: null, data: { invoice_id: 1042 } },
          cancelable: true,
        },
        {
          type: 'service:notification-click',
          detail: {
            id: invoice.id,
            category: 'billing',
            action: { label: 'Download', url: `${fixture.hostOrigin}/invoices/1042.pdf` },
            data: { invoice_id: 1042 },
          },
          cancelable: true,
        },
      ]);
      expect(page.url()).toBe(host.url);

      // destroy(): gone from the page and from window, and it never asks again.
      await bell('destroy()');
      expect(await page.locator(BELL).count()).toBe(0);
      expect(await page.evaluate('typeof window.launchNotifications')).toBe('undefined');
      const calls = (await record(page)).calls.length;
      await page.clock.runFor(120_000);
      await setVisibility(page, 'visible');
      expect((await record(page)).calls.length).toBe(calls);
      await expectClean(host);
    } finally {
      await host.close();
    }
  });

  it('revalidates an unchanged count: the browser sends If-None-Match and the server answers 304, the badge stays', async () => {
    await send({ user_id: 'hal', title: 'For Hal', body: 'One.' });
    // What the server answered to each unread/count call, and whether the browser asked conditionally.
    const seen: { conditional: boolean; status: number }[] = [];
    const server = fixture.t.app.getHttpServer();
    const watch = (
      req: { method?: string; url?: string; headers: Record<string, unknown> },
      res: { statusCode: number; once(event: string, listener: () => void): void },
    ) => {
      // GETs only: a preflight (OPTIONS) goes before the first.
      if (req.method === 'GET' && req.url?.startsWith('/v1/notifications/unread/count')) {
        res.once('finish', () => seen.push({ conditional: req.headers['if-none-match'] !== undefined, status: res.statusCode }));
      }
    };
    server.on('request', watch);
    const start = Date.now();
    const host = await bellPage('hal', {}, { setup: pausedClock(start) });
    try {
      const { page } = host;
      await settled(page, 1);
      await page.clock.runFor(20_000);
      await settled(page, 2);
      await eventually(async () => seen.length >= 2);
      expect(seen.slice(0, 2)).toEqual([
        { conditional: false, status: 200 },
        { conditional: true, status: 304 },
      ]);
      const badge = await page.getByRole('button', { name: /Notifications, \d+ unread/ }).getAttribute('aria-label');
      expect(badge).toMatch(/^Notifications, [1-9]\d* unread$/);
      await expectClean(host);
    } finally {
      server.off('request', watch);
      await host.close();
    }
  });

  it('polls the count at the plan’s interval only while visible, waits for Retry-After and backs off from network errors', async () => {
    const start = Date.now();
    const host = await bellPage('gus', {}, { setup: pausedClock(start) });
    try {
      const { page } = host;
      let answers = 1;
      /** Moves the page's clock on by `ms` and waits for the poll that is due then. */
      const pollAfter = async (ms: number) => {
        await page.clock.runFor(ms);
        await settled(page, ++answers);
      };
      const polls = async () =>
        (await record(page)).calls.filter((call) => call.url.includes('/unread/count')).map((call) => call.at - start - 1000);
      const COUNT = '**/v1/notifications/unread/count**';
      const answer = (status: number, headers: Record<string, string>) => ({
        status,
        headers: {
          'Access-Control-Allow-Origin': '*',
          'Access-Control-Expose-Headers': 'Retry-After',
          'Content-Type': 'application/json',
          ...headers,
        },
        body: JSON.stringify({ data: null, error: { code: 'RATE_LIMITED', message: 'Slow down.', remediation: 'Wait.' } }),
      });
      await settled(page, 1);
      // Indie: every 20 s from the first answer on (30 s before it).
      await pollAfter(20_000);
      await pollAfter(20_000);
      // Hidden for a minute: no call; visible again: a call at once.
      await setVisibility(page, 'hidden');
      await page.clock.runFor(60_000);
      expect(await polls()).toEqual([0, 20_000, 40_000]);
      await setVisibility(page, 'visible');
      await settled(page, ++answers);

      // 429 with Retry-After 45: the next call 45 s later, even when the tab comes back sooner.
      await page.route(COUNT, (route) => route.fulfill(answer(429, { 'Retry-After': '45' })), { times: 1 });
      await pollAfter(20_000);
      await page.clock.runFor(10_000);
      await setVisibility(page, 'hidden');
      await setVisibility(page, 'visible');
      await pollAfter(35_000);
      // 429 with Retry-After 5: no sooner than the interval.
      await page.route(COUNT, (route) => route.fulfill(answer(429, { 'Retry-After': '5' })), { times: 1 });
      await pollAfter(20_000);
      await pollAfter(20_000);

      // Network errors: 40 s, 80 s, 160 s, then at most 5 minutes; the interval again after an answer.
      await page.route(COUNT, (route) => route.abort('failed'), { times: 4 });
      await pollAfter(20_000);
      await pollAfter(40_000);
      await pollAfter(80_000);
      await pollAfter(160_000);
      await pollAfter(300_000);
      await pollAfter(20_000);
      expect(await polls()).toEqual([
        0, 20_000, 40_000, 100_000, 120_000, 165_000, 185_000, 205_000, 225_000, 265_000, 345_000, 505_000, 805_000, 825_000,
      ]);
      expect((await record(page)).events).toEqual([{ type: 'service:notifications', detail: { unread_count: 1 }, cancelable: false }]);
      expect(await host.violations()).toEqual([]);
      expect(host.console.filter((entry) => entry.type === 'pageerror' || entry.text.startsWith('launch-notifications'))).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('stops for good on 403 USER_HASH_INVALID, with one console error', async () => {
    const start = Date.now();
    const host = await bellPage('hal', { 'user-hash': 'f'.repeat(64) }, { setup: pausedClock(start) });
    try {
      const { page } = host;
      await settled(page, 1);
      await page.clock.runFor(600_000);
      await setVisibility(page, 'hidden');
      await setVisibility(page, 'visible');
      await page.evaluate('window.launchNotifications.refresh()');
      await page.getByRole('button', { name: 'Notifications', exact: true }).click();
      await page.locator(`${BELL} .empty`, { hasText: 'unavailable' }).waitFor();
      expect((await record(page)).calls.map((call) => new URL(call.url).pathname)).toEqual(['/v1/notifications/unread/count']);
      const ours = host.console.filter((entry) => entry.text.startsWith('launch-notifications'));
      expect(ours).toEqual([
        { type: 'error', text: expect.stringMatching(/^launch-notifications: USER_HASH_INVALID: user_hash does not match/) },
      ]);
      expect((await record(page)).events).toEqual([]);
      expect(await host.violations()).toEqual([]);
    } finally {
      await host.close();
    }
  });
});
