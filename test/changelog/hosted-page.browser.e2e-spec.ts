import type { Browser, BrowserContext } from 'playwright-core';
import { BrowserFixture, startAppWithBrowser } from '../support/browser';
import { entryCounts } from '../support/engagement';
import { seedEntry } from '../support/changelog-seed';
import { UNSAFE_MARKDOWN } from '../support/html-safety';
import { TestApp } from '../support/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The hosted changelog in a real browser: rendering, the policy, the view beacon, dark mode, phones. */
describe('the hosted changelog in a real browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;

  let fixture: BrowserFixture | undefined;

  beforeAll(async () => {
    fixture = await startAppWithBrowser();
    ({ t, origin, browser } = fixture);
  });
  afterAll(() => fixture?.close());

  /** A context that records policy violations and page errors. */
  async function contextWith(options: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; problems: string[] }> {
    const context = await browser.newContext(options);
    const problems: string[] = [];
    context.on('console', (message) => {
      if (/Content Security Policy|Refused to|error/i.test(message.text())) problems.push(message.text());
    });
    context.on('weberror', (error) => problems.push(error.error().message));
    return { context, problems };
  }

  async function viewsOf(entryId: string): Promise<number> {
    return (await entryCounts(t, entryId)).pageViews;
  }

  async function eventually(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await sleep(50);
    }
  }

  it('renders the entries without policy violations and counts the view and the button click', async () => {
    const { project } = await t.seedProject({ name: 'Acme' });
    const first = await seedEntry(t, project.id, { title: 'Dark mode', ctaLabel: 'Open settings', ctaUrl: '/settings', labels: ['ui'] });
    const second = await seedEntry(t, project.id, {
      title: 'Sneaky',
      bodyMarkdown: UNSAFE_MARKDOWN,
      publishedAt: new Date(Date.now() - 3_600_000),
    });
    const { context, problems } = await contextWith();
    try {
      const page = await context.newPage();
      let dialogs = 0;
      page.on('dialog', (dialog) => {
        dialogs += 1;
        void dialog.dismiss();
      });
      const seen = page.waitForRequest(
        (request) => request.url().endsWith(`/public/changelog/${project.slug}/seen`) && request.method() === 'POST',
      );
      const opened = await page.goto(`${origin}/changelog/${project.slug}`);
      expect(opened?.status()).toBe(200);
      expect(await page.locator('article h2').allTextContents()).toEqual(['Dark mode', 'Sneaky']);
      expect(JSON.parse((await seen).postData() ?? '{}')).toEqual({ entry_ids: [first.id, second.id] });
      await eventually(async () => (await viewsOf(first.id)) === 1 && (await viewsOf(second.id)) === 1);

      const click = page.waitForRequest((request) => request.url().endsWith(`/entries/${first.id}/click`));
      // The button leads to the owner's site path; stay on the page, the click is what counts.
      await page.route(`${origin}/settings`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>settings</p>' }));
      await page.click('a.cta');
      // A keepalive request outlives the navigation the button starts; the row is what matters.
      expect((await click).method()).toBe('POST');
      await eventually(async () => (await entryCounts(t, first.id)).ctaClicks === 1);
      expect(dialogs).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('works without JavaScript: entries, search and label filter', async () => {
    const { project } = await t.seedProject({ name: 'Acme' });
    await seedEntry(t, project.id, { title: 'Faster exports', labels: ['api'] });
    await seedEntry(t, project.id, { title: 'New theme', labels: ['ui'] });
    const { context, problems } = await contextWith({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${origin}/changelog/${project.slug}`);
      await page.fill('input[name=q]', 'EXPORT');
      await Promise.all([page.waitForURL(/q=EXPORT/), page.click('form.search button')]);
      expect(await page.locator('article h2').allTextContents()).toEqual(['Faster exports']);
      await page.goto(`${origin}/changelog/${project.slug}`);
      await Promise.all([page.waitForURL(/label=ui/), page.click('nav.labels a:has-text("ui")')]);
      expect(await page.locator('article h2').allTextContents()).toEqual(['New theme']);
      await Promise.all([page.waitForURL(/\/ce_/), page.click('article h2 a')]);
      expect(await page.locator('article h2').allTextContents()).toEqual(['New theme']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('follows the dark colour scheme and has no horizontal scroll at 375px', async () => {
    const { project } = await t.seedProject({ name: 'Acme' });
    await seedEntry(t, project.id, {
      title: 'A very long title '.repeat(8),
      bodyMarkdown: `A long link https://example.com/${'segment/'.repeat(30)} and code:\n\n\`\`\`\n${'x'.repeat(300)}\n\`\`\`\n\n| a | b |\n|---|---|\n| ${'wide '.repeat(40)} | y |`,
      coverImageUrl: 'https://images.invalid/cover.png',
      ctaLabel: 'Read more',
      ctaUrl: 'https://example.com/more',
      labels: ['api', 'ui', 'performance', 'billing'],
    });
    const { context, problems } = await contextWith({ viewport: { width: 375, height: 740 } });
    try {
      const page = await context.newPage();
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto(`${origin}/changelog/${project.slug}`);
      // Expressions as text: they run in the page, and this project compiles without the DOM types.
      const background = () => page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
      const light = await background();
      await page.emulateMedia({ colorScheme: 'dark' });
      const dark = await background();
      expect(light).toBe('rgb(255, 255, 255)');
      expect(dark).not.toBe(light);
      const widths = await page.evaluate<{ scroll: number; client: number }>(
        '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
      );
      expect(widths.client).toBe(375);
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      // The cover's host does not resolve; that is a network error, not a policy violation.
      expect(problems.filter((problem) => !/ERR_NAME_NOT_RESOLVED|Failed to load resource/.test(problem))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
