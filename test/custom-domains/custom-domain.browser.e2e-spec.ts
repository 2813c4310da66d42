import type { Browser } from 'playwright-core';
import { newId } from '../../src/common/ids/ids';
import { CustomDomainEntity } from '../../src/custom-domains/entities/custom-domain.entity';
import { BrowserFixture, startAppWithBrowser } from '../support/browser';
import { seedEntry } from '../support/changelog-seed';
import { entryCounts } from '../support/engagement';
import { TestApp } from '../support/test-app';
import { signupRows } from '../waitlist/waitlist-test-helpers';

const HOST = 'news.acme.example';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A verified custom domain in a real browser: the pages' own links, counters and form work there. */
describe('a verified custom domain in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let site: string;
  let fixture: BrowserFixture | undefined;

  beforeAll(async () => {
    fixture = await startAppWithBrowser({
      env: { CUSTOM_DOMAIN_CNAME_TARGET: 'domains.launch.test', BROWSER_RATE_LIMIT: '100000' },
      loopbackHosts: [HOST],
    });
    ({ t, browser } = fixture);
    site = `http://${HOST}:${new URL(fixture.origin).port}`;
  });
  afterAll(() => fixture?.close());

  async function eventually(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await sleep(50);
    }
  }

  it('walks the hosted page, an entry and back, counts the view and the click, and joins the waitlist', async () => {
    const { project } = await t.seedProject({ plan: 'builder', name: 'Acme' });
    const entry = await seedEntry(t, project.id, { title: 'Dark mode', ctaLabel: 'Open settings', ctaUrl: '/settings' });
    const now = t.clock.now();
    await t.db.manager.insert(CustomDomainEntity, {
      id: newId('dom'),
      projectId: project.id,
      hostname: HOST,
      verificationToken: 'b'.repeat(32),
      verifiedAt: now,
      lastCheckedAt: now,
      lastCheckError: null,
      nextCheckAt: null,
      failingSince: null,
      pendingSince: now,
      createdAt: now,
    });
    const context = await browser.newContext();
    const problems: string[] = [];
    context.on('console', (message) => {
      if (/Content Security Policy|Refused to|error/i.test(message.text())) problems.push(message.text());
    });
    context.on('weberror', (error) => problems.push(error.error().message));
    try {
      const page = await context.newPage();
      const seen = page.waitForRequest((request) => request.url() === `${site}/public/changelog/${project.slug}/seen`);
      expect((await page.goto(`${site}/`))?.status()).toBe(200);
      expect(await page.locator('article h2').allTextContents()).toEqual(['Dark mode']);
      expect((await (await seen).response())?.status()).toBe(200);
      await eventually(async () => (await entryCounts(t, entry.id)).pageViews === 1);

      await Promise.all([page.waitForURL(`${site}/${project.slug}/${entry.id}`), page.click('article h2 a')]);
      expect(await page.locator('article h2').textContent()).toBe('Dark mode');
      await Promise.all([page.waitForURL(`${site}/${project.slug}`), page.click('text=All Acme updates')]);
      expect(await page.locator('article h2').allTextContents()).toEqual(['Dark mode']);

      const click = page.waitForRequest(
        (request) => request.url() === `${site}/public/changelog/${project.slug}/entries/${entry.id}/click`,
      );
      await page.route(`${site}/settings`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>settings</p>' }));
      await page.click('a.cta');
      expect((await click).method()).toBe('POST');
      await eventually(async () => (await entryCounts(t, entry.id)).ctaClicks === 1);

      expect((await page.goto(`${site}/w/${project.slug}`))?.status()).toBe(200);
      await page.fill('#email', 'ada@example.com');
      await Promise.all([page.waitForURL(`${site}/w/${project.slug}`), page.click('button[type=submit]')]);
      expect(await page.locator('#position').textContent()).toBe('1');
      expect((await signupRows(t, project.id)).map((row) => row.email)).toEqual(['ada@example.com']);

      // Everything else on the domain is not found, the API reference included.
      expect((await page.goto(`${site}/docs`))?.status()).toBe(404);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
