import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { type BrowserFixture, startAppWithBrowser } from '../support/browser';
import { type CspViolation, recordViolations, screenshotDir } from '../support/browser-scripts';
import { publishEntry } from '../support/changelog-seed';
import { userHashOf } from '../support/notification-seed';
import { SigningSecretsService } from '../../src/notifications/identity/signing-secrets.service';
import type { SeededProject } from '../support/test-app';

/** The page's globals as the callbacks below use them (the test program has no DOM types). */
interface PageGlobals {
  __cspViolations: CspViolation[];
  document: { querySelector(selector: string): { shadowRoot: { textContent: string | null } | null } | null };
}

const bellText = (page: Page) =>
  page.evaluate(
    () => (globalThis as unknown as PageGlobals).document.querySelector('launch-notifications')?.shadowRoot?.textContent ?? null,
  );

/**
 * GET /demo in Chromium, as a developer opens it under `npm start`: both widgets of the demo project
 * render under the page's strict policy, and the button's notification reaches the bell.
 */
describe('the demo page in a browser', () => {
  let fixture: BrowserFixture;
  let demo: SeededProject;

  beforeAll(async () => {
    fixture = await startAppWithBrowser({ publicBaseUrlIsOrigin: true, env: { DEV_MAIL: 'on' } });
    demo = await fixture.t.seedProject({ plan: 'builder', slug: 'demo', name: 'Demo' });
    await publishEntry(fixture.t, demo.secretKey, { title: 'Dark mode', body_markdown: 'The dashboard follows your system theme.' });
  });
  afterAll(() => fixture?.close());

  it('shows both widgets, and the button raises the bell count, with nothing refused by its policy', async () => {
    const context = await fixture.browser.newContext({ viewport: { width: 900, height: 900 } });
    try {
      await context.addInitScript(recordViolations);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${fixture.origin}/demo`);

      await page.locator('launch-changelog .entry h3', { hasText: 'Dark mode' }).waitFor();
      await page.waitForFunction(() =>
        Boolean((globalThis as unknown as PageGlobals).document.querySelector('launch-notifications')?.shadowRoot?.textContent),
      );
      const { current } = await fixture.t.get(SigningSecretsService).readSecrets(demo.project.id);
      const unread = async () =>
        (
          await fixture.t.api
            .as(demo.publishableKey)
            .get('/v1/notifications/unread/count?user_id=demo-user')
            .set('X-Service-User-Hash', userHashOf('demo-user', current!))
            .expect(200)
        ).body.data.unread_count;
      expect(await unread()).toBe(0);
      const countsBefore = await bellText(page);

      await page.getByRole('button', { name: 'Send a test notification' }).click();
      await page.waitForURL(`${fixture.origin}/demo?sent=1`);
      await page.getByRole('status').filter({ hasText: 'Sent: the bell shows it.' }).waitFor();
      expect(await unread()).toBe(1);
      // Whatever the bell looks like, its text now holds the count, 1, as a number of its own.
      await page.waitForFunction(() =>
        /(^|\D)1(\D|$)/.test(
          (globalThis as unknown as PageGlobals).document.querySelector('launch-notifications')?.shadowRoot?.textContent ?? '',
        ),
      );
      expect(countsBefore).not.toMatch(/(^|\D)1(\D|$)/);
      await page.locator('launch-changelog .entry h3', { hasText: 'Dark mode' }).waitFor();

      expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__cspViolations)).toEqual([]);
      expect(problems).toEqual([]);
      mkdirSync(screenshotDir(), { recursive: true });
      await page.screenshot({ path: join(screenshotDir(), 'demo-page.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });
});
