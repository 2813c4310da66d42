import { seedEntry } from '../support/changelog-seed';
import { type ScriptTag, ScriptsFixture, startScriptsFixture, strictPolicy } from '../support/browser-scripts';
import { seedNotification, userHashOf } from '../support/notification-seed';
import type { SeededProject } from '../support/test-app';

const BELL = { name: 'Notifications, 2 unread' };
const TITLES = 'launch-changelog .entry h3';

/**
 * Both scripts on a customer's page from another site whose policy is only
 * `default-src 'none'; script-src {cdn}; connect-src {base_url}; img-src {base_url} https: data:`:
 * each renders what the API answers, as text, with nothing refused and nothing for axe to report.
 */
describe('the browser scripts on a page with a strict Content-Security-Policy', () => {
  let fixture: ScriptsFixture;
  let seeded: SeededProject;
  let userHash: string;

  beforeAll(async () => {
    fixture = await startScriptsFixture();
    const { t } = fixture;
    seeded = await t.seedProject({ plan: 'indie' });
    const secret = await t.api.as(seeded.secretKey).post('/v1/notifications/signing-secret').expect(201);
    userHash = userHashOf('user-1', secret.body.data.signing_secret);
    await seedNotification(t, seeded.project.id, { userId: 'user-1', title: 'First' });
    await seedNotification(t, seeded.project.id, { userId: 'user-1', title: 'Second' });
    await seedNotification(t, seeded.project.id, { userId: 'someone-else', title: 'Not theirs' });
    await seedEntry(t, seeded.project.id, { title: 'Dark mode' });
    await seedEntry(t, seeded.project.id, { title: '<img src=x onerror="document.title=1">Exports' });
  });
  afterAll(() => fixture?.close());

  const bothScripts = (): ScriptTag[] => [
    { script: 'notifications', data: { key: seeded.publishableKey, 'user-id': 'user-1', 'user-hash': userHash } },
    { script: 'changelog', data: { key: seeded.publishableKey } },
  ];

  it('renders the unread count and the entry titles as text, with no policy violation, console error or serious axe finding', async () => {
    const host = await fixture.openPage({ scripts: bothScripts() });
    try {
      await host.page.getByRole('button', BELL).waitFor();
      expect(await host.page.locator('launch-notifications .badge').textContent()).toBe('2');
      await host.page.locator(TITLES).first().waitFor();
      expect((await host.page.locator(TITLES).allTextContents()).sort()).toEqual([
        '<img src=x onerror="document.title=1">Exports',
        'Dark mode',
      ]);
      // The title stayed text: no element was made from it.
      expect(await host.page.locator('launch-changelog img').count()).toBe(0);
      expect(await host.page.title()).toBe('Host page');

      // Both elements: open shadow roots styled by adopted stylesheets, which the policy allows
      // (the bell adds a third, its own, that places its panel).
      expect(await host.shadowLook('launch-notifications', '.panel', ['borderTopStyle'])).toEqual({
        adoptedStyleSheets: 3,
        styles: { borderTopStyle: 'solid' },
      });
      for (const tag of ['launch-changelog']) {
        expect(await host.shadowLook(tag, 'section', ['borderTopStyle'])).toEqual({
          adoptedStyleSheets: 2,
          styles: { borderTopStyle: 'solid' },
        });
      }

      expect(await host.violations()).toEqual([]);
      expect(host.console.filter((entry) => entry.type !== 'log' && entry.type !== 'debug')).toEqual([]);
      expect(await host.axe()).toEqual([]);
      await host.screenshot('browser-scripts-strict-csp');
    } finally {
      await host.close();
    }
  });

  it('follows the visitor’s dark mode at 375 px wide (changelog data-theme auto) and keeps the bell light by default', async () => {
    const host = await fixture.openPage({ scripts: bothScripts(), viewport: { width: 375, height: 700 }, colorScheme: 'dark' });
    try {
      await host.page.locator(TITLES).first().waitFor();
      await host.page.getByRole('button', BELL).click();
      const background = async (tag: string, selector = 'section') =>
        (await host.shadowLook(tag, selector, ['backgroundColor'])).styles.backgroundColor;
      expect(await background('launch-notifications', '.panel')).toBe('rgb(255, 255, 255)');
      expect(await background('launch-changelog')).toBe('rgb(17, 24, 39)');
      expect(await host.scrollWidth()).toBeLessThanOrEqual(375);
      expect(await host.violations()).toEqual([]);
      expect(await host.axe()).toEqual([]);
      await host.screenshot('browser-scripts-dark-375');
    } finally {
      await host.close();
    }
  });

  it('would see a refused script: the same page without the CDN in script-src records the violation', async () => {
    const host = await fixture.openPage({
      scripts: [{ script: 'changelog', data: { key: seeded.publishableKey } }],
      policy: "default-src 'none'; img-src data:",
    });
    try {
      // Reported as the page loads: page.goto in openPage waits for the load event.
      expect(await host.violations()).toEqual([
        expect.objectContaining({ directive: 'script-src-elem', blockedURI: `${fixture.cdn}/v1/changelog.js` }),
      ]);
      expect(await host.page.locator('launch-changelog').count()).toBe(0);
    } finally {
      await host.close();
    }
  });

  it('calls the API at data-api instead of the address the server wrote in', async () => {
    // The same server under another name: only data-api can make the script call it there.
    const other = fixture.base.replace('127.0.0.1', 'localhost');
    const host = await fixture.openPage({
      scripts: [{ script: 'changelog', data: { key: seeded.publishableKey, api: other } }],
      policy: strictPolicy(fixture.cdn, other),
    });
    try {
      const calls: string[] = [];
      host.page.on('request', (request) => calls.push(request.url()));
      const seen = host.page.waitForRequest(`${other}/v1/changelog/widget/seen`);
      await host.page.reload();
      await host.page.locator(TITLES).first().waitFor();
      await seen;
      expect(calls.filter((url) => url.includes('/v1/changelog/widget/'))).toEqual([
        expect.stringMatching(new RegExp(`^${other}/v1/changelog/widget/entries\\?limit=5&client_id=[\\w-]{22}$`)),
        `${other}/v1/changelog/widget/seen`,
      ]);
      expect(await host.violations()).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('says in the console, once, which setting is wrong, and keeps working with the default', async () => {
    const host = await fixture.openPage({
      scripts: [{ script: 'changelog', data: { key: seeded.publishableKey, limit: '500', theme: 'sepia' } }],
    });
    try {
      await host.page.locator(TITLES).first().waitFor();
      expect(host.console.filter((entry) => entry.type === 'warning').map((entry) => entry.text)).toEqual([
        'launch-changelog: data-theme "sepia" is not valid; using "auto".',
        'launch-changelog: data-limit "500" is not valid; using 5.',
      ]);
      expect(await host.page.locator(TITLES).count()).toBe(2);
    } finally {
      await host.close();
    }
  });
});
