import type { Browser, BrowserContext } from 'playwright-core';
import { BrowserFixture, startAppWithBrowser } from '../support/browser';
import { SeededProject, TestApp } from '../support/test-app';
import { BASE_URL, mailsTo, signupByEmail } from './waitlist-test-helpers';

/** The hosted page and the email-link pages in a real browser, as a person meets them. */
describe('the hosted pages in a real browser', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let seeded: SeededProject;

  let fixture: BrowserFixture | undefined;

  beforeAll(async () => {
    fixture = await startAppWithBrowser();
    ({ t, origin, browser } = fixture);
  });
  afterAll(() => fixture?.close());
  beforeEach(async () => {
    seeded = await t.seedProject({ plan: 'indie', name: `Ada's <Engines>` });
  });

  /**
   * A browser context that records policy violations and page errors, JavaScript on or off. (Not
   * every console error: a page answered 409 logs one for itself.)
   */
  async function contextWith(javaScriptEnabled: boolean): Promise<{ context: BrowserContext; problems: string[] }> {
    const context = await browser.newContext({ javaScriptEnabled });
    const problems: string[] = [];
    context.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    context.on('weberror', (error) => problems.push(error.error().message));
    return { context, problems };
  }

  it.each([
    ['without JavaScript', false],
    ['with JavaScript', true],
  ])('signs up through the referral link %s, shows the position and the own referral link, credits the referrer', async (_case, js) => {
    const referrer = await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email: 'first@x.io' }).expect(201);
    const code: string = referrer.body.data.referral_code;
    const { context, problems } = await contextWith(js);
    try {
      const page = await context.newPage();
      const opened = await page.goto(`${origin}/w/${seeded.project.slug}?ref=${code}`);
      expect(opened?.status()).toBe(200);
      expect(await page.title()).toBe(`Ada's <Engines> waitlist`);
      expect(await page.locator('h1').textContent()).toBe(`Ada's <Engines> waitlist`);
      await page.fill('#email', 'Second@X.io');
      await Promise.all([page.waitForURL(`${origin}/w/${seeded.project.slug}`), page.click('button[type=submit]')]);
      expect(await page.locator('#position').textContent()).toBe('2');
      const row = await signupByEmail(t, seeded.project.id, 'second@x.io');
      const link = `${BASE_URL}/w/${seeded.project.slug}?ref=${row.referralCode}`;
      expect(await page.locator('#referral-link').textContent()).toBe(link);
      expect(await page.locator('#referral-link').getAttribute('href')).toBe(link);
      expect(row).toMatchObject({ position: 2, channel: 'widget', referredBySignupId: referrer.body.data.signup_id });
      expect((await signupByEmail(t, seeded.project.id, 'first@x.io')).referralCount).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the form again with a message for an email already on the list', async () => {
    await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email: 'dup@x.io' }).expect(201);
    const { context, problems } = await contextWith(true);
    try {
      const page = await context.newPage();
      await page.goto(`${origin}/w/${seeded.project.slug}`);
      await page.fill('#email', 'dup@x.io');
      await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
      await page.waitForSelector('.error');
      expect(await page.locator('.error').textContent()).toContain('already on the waitlist');
      expect(await page.inputValue('#email')).toBe('dup@x.io');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('confirms only when the button of the confirmation page is pressed', async () => {
    await t.api.as(seeded.secretKey).post('/v1/waitlist/signups').send({ email: 'confirm@x.io' }).expect(201);
    const [mail] = await mailsTo(t, seeded.project.id, 'confirm@x.io');
    const path = /https:\/\/launch\.test(\/v1\/waitlist\/confirm\?token=[\w-]+)/.exec(mail.textBody)?.[1];
    const { context, problems } = await contextWith(false);
    try {
      const page = await context.newPage();
      await page.goto(`${origin}${path}`);
      expect(await page.locator('h1').textContent()).toBe('Confirm your email');
      expect((await signupByEmail(t, seeded.project.id, 'confirm@x.io')).confirmedAt).toBeNull();
      await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
      await page.waitForSelector('text=Email confirmed');
      expect(await page.locator('main p').textContent()).toContain("Ada's <Engines>");
      expect((await signupByEmail(t, seeded.project.id, 'confirm@x.io')).confirmedAt).toBeInstanceOf(Date);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
