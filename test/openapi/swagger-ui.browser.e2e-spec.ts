import type { Page } from 'playwright-core';
import { BrowserFixture, startAppWithBrowser } from '../support/browser';
import type { SeededProject } from '../support/test-app';

// A name the server answers on that is not PUBLIC_BASE_URL's (the browser resolves it to the app).
const OTHER_HOST = 'api.launch-docs.test';

/**
 * The API reference as an integrator first meets it: open /docs, authorise with a secret key in
 * the first box of the Authorize dialog, and run GET /v1/setup-check with "Try it out".
 */
describe('Swagger UI at /docs in a real browser', () => {
  let fixture: BrowserFixture;
  let seeded: SeededProject;

  beforeAll(async () => {
    fixture = await startAppWithBrowser({ publicBaseUrlIsOrigin: true, loopbackHosts: [OTHER_HOST] });
    seeded = await fixture.t.seedProject({ plan: 'indie', name: 'Docs Check' });
  });
  afterAll(() => fixture?.close());

  const SETUP_CHECK = '#operations-Project-setupCheck';
  const CREATE_ENTRY = '#operations-Changelog-createEntry';

  /** Opens the Authorize dialog and fills the first box, the secret key's. */
  async function authorize(page: Page, secretKey: string): Promise<void> {
    await page.locator('.scheme-container button.authorize').click();
    const boxes = page.locator('.modal-ux .auth-container');
    expect(await boxes.first().locator('h4').textContent()).toContain('secret_key');
    await boxes.first().locator('input').fill(secretKey);
    await boxes.first().locator('button.authorize').click();
    expect(await boxes.first().textContent()).toContain('Authorized');
    await page.locator('.modal-ux button.btn-done').first().click();
  }

  /** Expands GET /v1/setup-check, runs it, and answers the status and body Swagger UI shows. */
  async function trySetupCheck(page: Page): Promise<{ status: string; body: string }> {
    const operation = page.locator(SETUP_CHECK);
    if (!(await operation.locator('.try-out__btn').isVisible())) await operation.locator('.opblock-summary').click();
    await operation.locator('.try-out__btn').click();
    await operation.locator('button.execute').click();
    const live = operation.locator('.live-responses-table .response');
    await live.first().waitFor();
    const status = (await live.first().locator('.response-col_status').textContent())?.trim() ?? '';
    const body = (await live.first().locator('.response-col_description pre').first().textContent()) ?? '';
    return { status, body };
  }

  it('authorises with the secret key in the first box and runs "Try it out" on GET /v1/setup-check, also after a reload', async () => {
    const context = await fixture.browser.newContext();
    const problems: string[] = [];
    context.on('weberror', (error) => problems.push(error.error().message));
    try {
      const page = await context.newPage();
      await page.goto(`${fixture.origin}/docs`);
      await page.locator(SETUP_CHECK).waitFor();

      await authorize(page, seeded.secretKey);

      const first = await trySetupCheck(page);
      // The documented examples as Swagger UI renders them: real values, per-status error codes.
      const documented = (await page.locator(`${SETUP_CHECK} .responses-inner`).textContent()) ?? '';
      expect(documented).not.toMatch(/"string"|additionalProp1/);
      expect(documented).toContain('"error": null');
      expect(documented).toMatch(/"code": "(INVALID_API_KEY|MISSING_AUTH)"/);
      expect(documented).toContain('"code": "KEY_INSUFFICIENT_PERMISSIONS"');
      expect(first.status).toBe('200');
      const answer = JSON.parse(first.body);
      expect(answer).toMatchObject({ error: null, data: { project_id: seeded.project.id, plan: 'indie' } });

      // persistAuthorization: the key survives a reload; no second trip to the Authorize dialog.
      await page.reload();
      await page.locator(SETUP_CHECK).waitFor();
      const again = await trySetupCheck(page);
      expect(again.status).toBe('200');
      expect(JSON.parse(again.body).data.project_slug).toBe(seeded.project.slug);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('runs the example of POST /v1/changelog/entries as shown, on a page opened under another host name than PUBLIC_BASE_URL', async () => {
    const context = await fixture.browser.newContext();
    const problems: string[] = [];
    context.on('weberror', (error) => problems.push(error.error().message));
    try {
      const page = await context.newPage();
      // A blocked call is a CSP report on the console (the Cross-Origin-Opener-Policy note of plain http is not).
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to connect/.test(message.text())) problems.push(message.text());
      });
      const other = fixture.origin.replace('127.0.0.1', OTHER_HOST);
      await page.goto(`${other}/docs`);
      expect(await page.title()).toBe('Launch Service API');
      await page.locator(CREATE_ENTRY).waitFor();
      await authorize(page, seeded.secretKey);

      const operation = page.locator(CREATE_ENTRY);
      await operation.locator('.opblock-summary').click();
      await operation.locator('.try-out__btn').click();
      await operation.locator('button.execute').click();
      const live = operation.locator('.live-responses-table .response');
      await live.first().waitFor();
      expect((await live.first().locator('.response-col_status').textContent())?.trim()).toBe('201');
      // The request went to the host the page was opened on.
      expect(await operation.locator('.request-url pre').textContent()).toContain(`${other}/v1/changelog/entries`);
      const answer = JSON.parse((await live.first().locator('.response-col_description pre').first().textContent()) ?? '');
      expect(answer).toMatchObject({ error: null, data: { title: 'Export to PDF', status: 'published' } });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
