import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BELL,
  type BellFixture,
  INSTRUMENT,
  TITLES,
  expectClean,
  eventually,
  focused,
  look,
  record,
  settled,
  startBellFixture,
} from '../support/bell-pages';
import { type ScriptsFixture, screenshotDir } from '../support/browser-scripts';
import { receiptOf } from '../support/notification-seed';

/**
 * The notification bell on a customer's page from another site under the strict policy, as a
 * visitor sees and uses it: every setting and its fallback, the panel's sections, tabs, archive
 * and reactions, keyboard alone, 375 px and dark mode, axe. Events, methods and polling:
 * bell-polling.browser.e2e-spec.ts.
 */
describe('the notification bell (notifications.js) as visitors see and use it', () => {
  let bell: BellFixture;
  let fixture: ScriptsFixture;

  beforeAll(async () => {
    bell = await startBellFixture();
    fixture = bell.scripts;
  });
  afterAll(() => bell?.close());

  const seedInbox = (userId: string, plain = false) => bell.seedInbox(userId, plain);
  const bellPage: BellFixture['bellPage'] = (...args) => bell.bellPage(...args);

  it('shows a launcher with the unread count, opens the inbox in sections, closes on Escape and follows a click', async () => {
    const { pinned, invoice } = await seedInbox('ada', true);
    const host = await bellPage('ada');
    try {
      const { page } = host;
      const button = page.getByRole('button', { name: 'Notifications, 4 unread' });
      await button.waitFor();
      expect(await button.getAttribute('aria-expanded')).toBe('false');
      expect(await button.getAttribute('aria-controls')).toBe('panel');
      expect(await page.locator(`${BELL} .badge`).textContent()).toBe('4');
      // The launcher: fixed at the bottom right, the accent on the button, the light theme.
      expect(await look(page, BELL, ['position', 'right', 'bottom'])).toEqual({ position: 'fixed', right: '20px', bottom: '20px' });
      expect(await look(page, `${BELL} .bell`, ['backgroundColor'])).toEqual({ backgroundColor: 'rgb(79, 70, 229)' });
      expect((await host.shadowLook(BELL, '.bell', [])).adoptedStyleSheets).toBe(3);
      expect(await host.axe()).toEqual([]);

      await button.click();
      await page.locator(TITLES).first().waitFor();
      expect(await button.getAttribute('aria-expanded')).toBe('true');
      expect(await page.locator(`${BELL} #panel`).getAttribute('role')).toBe('dialog');
      expect(await look(page, `${BELL} #panel`, ['backgroundColor'])).toEqual({ backgroundColor: 'rgb(255, 255, 255)' });
      expect(await page.locator(`${BELL} h2`).textContent()).toBe('Notifications');
      expect(await page.locator(`${BELL} h3`).allTextContents()).toEqual(['Pinned', 'What’s new']);
      expect(await page.locator(TITLES).allTextContents()).toEqual([
        'Maintenance on Sunday, unread',
        'Ben commented on “Launch plan”, unread',
        'Invoice 1042 is ready, unread',
        `${bell.whatsNew}, unread`,
      ]);
      expect(await page.locator(`${BELL} section`).first().locator('.title').textContent()).toContain('Maintenance');
      expect(await page.locator(`${BELL} .action`).allTextContents()).toEqual(['Download', 'Billing settings']);
      // Default labels, the default limit, and opening marks nothing read.
      expect(await page.locator(`${BELL} header .link`).allTextContents()).toEqual(['Mark all as read', 'Archived']);
      expect(await page.locator(`${BELL} .archive`).first().textContent()).toBe('Archive');
      expect(await page.locator(`${BELL} .archive`).first().getAttribute('aria-label')).toBe('Archive: Maintenance on Sunday');
      const inbox = (await record(page)).calls.filter((call) => call.url.includes('/inbox'));
      expect(inbox.map((call) => new URL(call.url).searchParams.get('limit'))).toEqual(['20']);
      expect(await receiptOf(fixture.t, pinned.id, 'ada')).toBeNull();
      expect(await focused(page)).toBe('#panel');
      expect(await host.axe()).toEqual([]);
      // The guide's picture: the open panel above its launcher.
      const panel = (await page.locator(`${BELL} #panel`).boundingBox())!;
      await page.screenshot({
        path: join(screenshotDir(), 'bell-light-open.png'),
        clip: { x: panel.x - 12, y: panel.y - 12, width: panel.width + 24, height: panel.height + 90 },
      });

      await page.keyboard.press('Escape');
      expect(await page.locator(`${BELL} #panel`).isHidden()).toBe(true);
      expect(await button.getAttribute('aria-expanded')).toBe('false');
      expect(await focused(page)).toBe('Notifications, 4 unread');
      await expectClean(host);

      // A click records the click (read too), then goes to the notification's URL.
      await button.click();
      await page.locator(TITLES, { hasText: 'Invoice 1042' }).click();
      await page.waitForURL(`${fixture.hostOrigin}/billing/1042`);
      expect(await receiptOf(fixture.t, invoice.id, 'ada')).toEqual(
        expect.objectContaining({ readAt: expect.any(Date), clickedAt: expect.any(Date), archivedAt: null }),
      );
    } finally {
      await host.close();
    }
  });

  it('takes every setting: a target, a dot, the dark theme, an accent, labels, a limit and category tabs', async () => {
    const { invoice, pinned, old } = await seedInbox('bo');
    const host = await bellPage(
      'bo',
      {
        target: '#slot',
        position: 'top-left',
        bell: 'show',
        accent: '#0f766e',
        theme: 'dark',
        badge: 'dot',
        title: 'Inbox',
        empty: 'Nothing here',
        'mark-all-label': 'Read all',
        'whats-new-label': 'Product news',
        'pinned-label': 'Keep',
        limit: '2',
        categories: 'billing:Billing, changelog:Updates, security:Security',
        'archived-label': 'Old',
        'archive-label': 'Hide',
        'restore-label': 'Bring back',
      },
      { body: '<nav id="slot"></nav>' },
    );
    try {
      const { page } = host;
      const button = page.getByRole('button', { name: 'Inbox, 5 unread' });
      await button.waitFor();
      expect(await page.locator(`#slot > ${BELL}`).count()).toBe(1);
      expect(await look(page, BELL, ['position', 'display'])).toEqual({ position: 'static', display: 'inline-block' });
      expect(await page.locator(`${BELL} .badge`).textContent()).toBe('');
      expect(await look(page, `${BELL} .badge`, ['width', 'height'])).toEqual({ width: '10px', height: '10px' });

      await button.click();
      await page.locator(TITLES).first().waitFor();
      expect(await look(page, `${BELL} #panel`, ['backgroundColor'])).toEqual({ backgroundColor: 'rgb(17, 24, 39)' });
      expect(await page.locator(`${BELL} h2`).textContent()).toBe('Inbox');
      expect(await page.locator(`${BELL} header .link`).allTextContents()).toEqual(['Read all', 'Old']);
      expect(await page.locator(`${BELL} [role=tab]`).allTextContents()).toEqual(['All', 'Billing', 'Updates', 'Security']);
      expect(await page.locator(`${BELL} [role=tab][aria-selected=true]`).textContent()).toBe('All');
      expect(await page.locator(TITLES).count()).toBe(2);
      expect(await page.locator(`${BELL} h3`).allTextContents()).toEqual(['Keep']);
      expect(await page.locator(`${BELL} .archive`).first().textContent()).toBe('Hide');
      expect(await host.axe()).toEqual([]);

      const inboxQueries = async () =>
        (await record(page)).calls
          .filter((call) => call.url.includes('/inbox'))
          .map((call) => Object.fromEntries(new URL(call.url).searchParams));
      const choose = async (tab: string, title: string | null) => {
        const before = (await inboxQueries()).length;
        await page.locator(`${BELL} [role=tab]`, { hasText: tab }).click();
        await (title ? page.locator(TITLES, { hasText: title }) : page.locator(`${BELL} .empty`, { hasText: 'Nothing here' })).waitFor();
        return (await inboxQueries()).slice(before);
      };
      expect(await choose('Billing', 'Invoice 1042')).toEqual([{ user_id: 'bo', limit: '2', category: 'billing' }]);
      expect(await page.locator(`${BELL} [role=tabpanel]`).getAttribute('aria-labelledby')).toBe('tab-1');
      expect(await look(page, `${BELL} .action`, ['backgroundColor'])).toEqual({ backgroundColor: 'rgb(15, 118, 110)' });
      // Mark all read in a tab marks that category only.
      await page.locator(`${BELL} header .link`, { hasText: 'Read all' }).click();
      await page.getByRole('button', { name: 'Inbox, 4 unread' }).waitFor();
      expect((await receiptOf(fixture.t, invoice.id, 'bo'))?.readAt).toEqual(expect.any(Date));
      expect(await receiptOf(fixture.t, pinned.id, 'bo')).toBeNull();

      await choose('Updates', bell.whatsNew);
      expect(await page.locator(`${BELL} h3`).allTextContents()).toEqual(['Product news']);
      await choose('Security', null);

      // The archived view (of all categories), and restoring from it.
      await choose('All', 'Maintenance');
      await page.locator(`${BELL} header .link`, { hasText: 'Old' }).click();
      await page.locator(TITLES, { hasText: 'Last month' }).waitFor();
      expect(await page.locator(`${BELL} header .link`, { hasText: 'Old' }).getAttribute('aria-pressed')).toBe('true');
      expect(await page.locator(`${BELL} header .link`, { hasText: 'Read all' }).isHidden()).toBe(true);
      expect((await inboxQueries()).pop()).toEqual({ user_id: 'bo', limit: '2', archived: 'only' });
      await page.getByRole('button', { name: 'Bring back: Last month’s report' }).click();
      await page.locator(`${BELL} .empty`, { hasText: 'Nothing here' }).waitFor();
      await eventually(async () => (await receiptOf(fixture.t, old.id, 'bo'))?.archivedAt === null);

      await page.locator(`${BELL} header .link`, { hasText: 'Old' }).click();
      await page.locator(`${BELL} header .link`, { hasText: 'Read all' }).click();
      await page.getByRole('button', { name: 'Inbox', exact: true }).waitFor();
      expect((await record(page)).events.pop()).toEqual({ type: 'service:notifications', detail: { unread_count: 0 }, cancelable: false });
      expect(await page.locator(`${BELL} .badge`).isHidden()).toBe(true);
      expect(await host.axe()).toEqual([]);
      expect(host.console.filter((entry) => entry.type !== 'log')).toEqual([]);
      expect(await host.violations()).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('falls back to each default on a bad value with one console warning each', async () => {
    const host = await bellPage('cy', {
      target: '#nowhere',
      position: 'middle',
      bell: 'maybe',
      accent: 'teal',
      theme: 'sepia',
      badge: 'number',
      title: '',
      empty: ' ',
      'mark-all-label': '',
      'whats-new-label': '',
      'pinned-label': '',
      limit: '51',
      categories: 'Billing',
      'archived-label': '',
      'archive-label': '',
      'restore-label': '',
    });
    try {
      const { page } = host;
      const button = page.getByRole('button', { name: 'Notifications, 1 unread' });
      await button.waitFor();
      const bad = (name: string, value: string, fallback: string) =>
        `launch-notifications: data-${name} "${value}" is not valid; using ${fallback}.`;
      expect(host.console.filter((entry) => entry.type === 'warning').map((entry) => entry.text)).toEqual([
        bad('title', '', '"Notifications"'),
        bad('empty', ' ', '"You’re all caught up."'),
        bad('mark-all-label', '', '"Mark all as read"'),
        bad('whats-new-label', '', '"What’s new"'),
        bad('pinned-label', '', '"Pinned"'),
        bad('archived-label', '', '"Archived"'),
        bad('archive-label', '', '"Archive"'),
        bad('restore-label', '', '"Restore"'),
        bad('position', 'middle', '"bottom-right"'),
        bad('bell', 'maybe', '"show"'),
        bad('accent', 'teal', '"#4f46e5"'),
        bad('theme', 'sepia', '"light"'),
        bad('badge', 'number', '"count"'),
        bad('limit', '51', '20'),
        bad('categories', 'Billing', '[]'),
        'launch-notifications: data-target "#nowhere" matches nothing; using <body>.',
      ]);
      expect(await look(page, BELL, ['position', 'right', 'bottom'])).toEqual({ position: 'fixed', right: '20px', bottom: '20px' });
      expect(await look(page, `${BELL} .bell`, ['backgroundColor'])).toEqual({ backgroundColor: 'rgb(79, 70, 229)' });
      expect(await page.locator(`${BELL} .badge`).textContent()).toBe('1');
      await button.click();
      await page.locator(TITLES).first().waitFor();
      expect(await look(page, `${BELL} #panel`, ['backgroundColor'])).toEqual({ backgroundColor: 'rgb(255, 255, 255)' });
      expect(await page.locator(`${BELL} header .link`).allTextContents()).toEqual(['Mark all as read', 'Archived']);
      expect(await page.locator(`${BELL} h3`).allTextContents()).toEqual(['What’s new']);
      expect(await page.locator(`${BELL} [role=tablist]`).count()).toBe(0);
      const inbox = (await record(page)).calls.find((call) => call.url.includes('/inbox'))!;
      expect(new URL(inbox.url).searchParams.get('limit')).toBe('20');
      await page.locator(`${BELL} header .link`, { hasText: 'Archived' }).click();
      await page.locator(`${BELL} .empty`, { hasText: 'You’re all caught up.' }).waitFor();
      await expectClean(host);
    } finally {
      await host.close();
    }
  });

  it('renders nothing without a required setting, with one console error', async () => {
    const host = await fixture.openPage({
      scripts: [{ script: 'notifications', data: { key: bell.seeded.publishableKey, 'user-id': 'dan' } }],
      setup: async (page) => {
        await page.addInitScript({ content: INSTRUMENT });
      },
    });
    try {
      expect(host.console).toEqual([{ type: 'error', text: 'launch-notifications: data-user-hash is required on the script tag.' }]);
      expect(await host.page.locator(BELL).count()).toBe(0);
      expect(await host.page.evaluate('typeof window.launchNotifications')).toBe('undefined');
      expect((await record(host.page)).calls).toEqual([]);
      expect(await host.violations()).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('hides the button with data-bell="none": the page opens the panel at its own anchor, and focus returns there', async () => {
    const host = await bellPage(
      'dee',
      { bell: 'none', position: 'top-left' },
      { body: '<p><button id="updates" type="button">Updates</button></p>' },
    );
    try {
      const { page } = host;
      await settled(page, 1);
      expect((await record(page)).events).toEqual([{ type: 'service:notifications', detail: { unread_count: 1 }, cancelable: false }]);
      expect(await page.locator(`${BELL} .bell`).isHidden()).toBe(true);
      expect(await look(page, BELL, ['position', 'left', 'top'])).toEqual({ position: 'fixed', left: '20px', top: '20px' });

      await page.focus('#updates');
      await page.evaluate(`window.launchNotifications.open(document.getElementById('updates'))`);
      await page.locator(TITLES).first().waitFor();
      const anchor = (await page.locator('#updates').boundingBox())!;
      const panel = (await page.locator(`${BELL} #panel`).boundingBox())!;
      expect(Math.round(panel.y)).toBe(Math.round(anchor.y + anchor.height + 8));
      expect(Math.round(panel.x)).toBe(Math.round(anchor.x));
      await page.keyboard.press('Escape');
      expect(await page.locator(`${BELL} #panel`).isHidden()).toBe(true);
      expect(await focused(page)).toBe('Updates');

      // toggle(anchor) opens and closes; a press outside the panel closes it too.
      await page.evaluate(`window.launchNotifications.toggle(document.getElementById('updates'))`);
      expect(await page.locator(`${BELL} #panel`).isVisible()).toBe(true);
      await page.evaluate(`window.launchNotifications.toggle(document.getElementById('updates'))`);
      expect(await page.locator(`${BELL} #panel`).isHidden()).toBe(true);
      await page.evaluate(`window.launchNotifications.open(document.getElementById('updates'))`);
      await page.locator('h1').click();
      expect(await page.locator(`${BELL} #panel`).isHidden()).toBe(true);
      expect(await host.axe()).toEqual([]);
      await expectClean(host);
    } finally {
      await host.close();
    }
  });

  it('is operable by keyboard alone: tabs with arrow keys, click, reactions, archive, Escape back to the bell', async () => {
    const { invoice, comment } = await seedInbox('kim');
    const host = await bellPage('kim', { categories: 'billing:Billing,team:Team' });
    try {
      const { page } = host;
      const keys = async (...pressed: string[]) => {
        for (const key of pressed) await page.keyboard.press(key);
        return focused(page);
      };
      await page.getByRole('button', { name: 'Notifications, 5 unread' }).waitFor();
      await page.evaluate('window.__bell.prevent = true');
      expect(await keys('Tab')).toBe('Notifications, 5 unread');
      expect(await keys('Enter')).toBe('#panel');
      await page.locator(TITLES).first().waitFor();
      expect(await keys('Tab')).toBe('Mark all as read');
      expect(await keys('Tab')).toBe('Archived');
      expect(await keys('Tab')).toBe('All');
      expect(await keys('ArrowRight')).toBe('Billing');
      await page.locator(TITLES, { hasText: 'Invoice' }).waitFor();
      expect(await page.locator(TITLES).count()).toBe(1);
      expect(await keys('Tab')).toBe('Invoice 1042 is ready, unread');
      expect(await keys('Tab')).toBe('Download');
      expect(await keys('Tab')).toBe('Billing settings');
      expect(await keys('Tab')).toBe('Archive: Invoice 1042 is ready');
      expect(await keys('Shift+Tab', 'Shift+Tab', 'Shift+Tab')).toBe('Invoice 1042 is ready, unread');
      // Enter chooses it: the click is recorded and, as it has a URL (the page prevents the visit here), the panel closes.
      await keys('Enter');
      await page.getByRole('button', { name: 'Notifications, 4 unread' }).waitFor();
      expect(await focused(page)).toBe('Notifications, 4 unread');
      await eventually(async () => (await receiptOf(fixture.t, invoice.id, 'kim'))?.clickedAt != null);
      expect(await keys('Enter', 'Tab', 'Tab', 'Tab')).toBe('Billing');
      expect(await keys('End')).toBe('Team');
      await page.locator(TITLES, { hasText: 'Ben commented' }).waitFor();
      expect(await keys('Tab', 'Tab')).toBe('like');
      expect(await keys('Space')).toBe('like');
      expect(await page.locator(`${BELL} .react[aria-pressed=true]`).getAttribute('aria-label')).toBe('like');
      await eventually(async () => (await receiptOf(fixture.t, comment.id, 'kim'))?.reaction === 'like');
      expect(await keys('Tab', 'Enter')).toBe('celebrate');
      await eventually(async () => (await receiptOf(fixture.t, comment.id, 'kim'))?.reaction === 'celebrate');
      expect(await keys('Enter')).toBe('celebrate');
      await eventually(async () => (await receiptOf(fixture.t, comment.id, 'kim'))?.reaction == null);
      expect(await keys('Tab', 'Tab')).toBe('Archive: Ben commented on “Launch plan”');
      // Archived: the item leaves the list and focus stays in the panel.
      expect(await keys('Enter')).toBe('#panel');
      await eventually(async () => (await receiptOf(fixture.t, comment.id, 'kim'))?.archivedAt != null);
      expect(await page.locator(`${BELL} .empty`).textContent()).toBe('You’re all caught up.');
      expect(await keys('Escape')).toBe('Notifications, 3 unread');
      expect(await page.locator(`${BELL} #panel`).isHidden()).toBe(true);
      await expectClean(host);
    } finally {
      await host.close();
    }
  });

  it('fits a 375 px screen in the visitor’s dark mode (data-theme auto) with no serious axe finding, open or closed', async () => {
    await seedInbox('zoe');
    const host = await bellPage('zoe', { theme: 'auto' }, { viewport: { width: 375, height: 700 }, colorScheme: 'dark' });
    try {
      const { page } = host;
      const button = page.getByRole('button', { name: 'Notifications, 5 unread' });
      await button.waitFor();
      expect(await host.axe()).toEqual([]);
      await button.click();
      await page.locator(TITLES).first().waitFor();
      expect(await look(page, `${BELL} #panel`, ['backgroundColor', 'color'])).toEqual({
        backgroundColor: 'rgb(17, 24, 39)',
        color: 'rgb(249, 250, 251)',
      });
      const panel = (await page.locator(`${BELL} #panel`).boundingBox())!;
      expect(panel.x).toBeGreaterThanOrEqual(8);
      expect(panel.x + panel.width).toBeLessThanOrEqual(375 - 8);
      expect(panel.y).toBeGreaterThanOrEqual(8);
      expect(await host.scrollWidth()).toBeLessThanOrEqual(375);
      expect(await host.axe()).toEqual([]);
      await host.screenshot('bell-dark-375');
      await expectClean(host);
    } finally {
      await host.close();
    }
  });

  it('works on a page with only the guide’s snippet (example values replaced)', async () => {
    const guide = readFileSync(join(__dirname, '..', '..', 'docs', 'browser-scripts.md'), 'utf8');
    const snippet = /```html\n([\s\S]*?)```/.exec(guide.slice(guide.indexOf('## Embed the bell')))![1];
    const html = snippet
      .replace('https://cdn.example.com', fixture.cdn)
      .replace('svc_pub_live_…', bell.seeded.publishableKey)
      .replace(/data-user-hash="[0-9a-f]{64}"/, `data-user-hash="${bell.hashOf('user_42')}"`);
    expect(html).toContain('data-user-id="user_42"');
    const host = await fixture.openPage({ scripts: [], body: html });
    try {
      await host.page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
      await host.page.locator(TITLES, { hasText: bell.whatsNew }).waitFor();
      await expectClean(host);
    } finally {
      await host.close();
    }
  });
});
