import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pageContentSecurityPolicy } from '../../common/html/html-page';
import { confirmPromptPage, signupDonePage, signupFormPage, unsubscribedPage } from './waitlist-pages';

const HOSTILE = `<script>alert("x")</script>'&`;
const ESCAPED = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;';

const bodyOf = (reply: { body: string | Buffer }) => String(reply.body);

describe('waitlist pages', () => {
  it('escape names and values in text and in attributes', () => {
    const form = signupFormPage({
      projectName: HOSTILE,
      slug: 'acme',
      referrerCode: 'ABCD2345',
      email: `"><img src=x onerror=alert(1)>`,
      error: HOSTILE,
      turnstileSiteKey: null,
      canonical: 'https://launch.test/w/acme',
    });
    const html = bodyOf(form);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain(`<title>${ESCAPED} waitlist</title>`);
    expect(html).toContain(`value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"`);
    expect(bodyOf(unsubscribedPage(HOSTILE))).toContain(ESCAPED);
    expect(bodyOf(signupDonePage({ projectName: HOSTILE, position: 3, referralLink: 'https://x.test/w/a?ref=B' }))).toContain(
      'href="https://x.test/w/a?ref=B"',
    );
  });

  it('post the confirm button to the link itself, with a strict policy and no cache', () => {
    const page = confirmPromptPage('the Acme waitlist', 'tok_-1');
    expect(bodyOf(page)).toContain('<form method="post" action="confirm?token=tok_-1">');
    expect(page.headers['Cache-Control']).toBe('no-store');
    expect(page.headers['Content-Security-Policy']).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; /);
    expect(page.headers['Content-Security-Policy']).not.toContain('script-src');
  });

  it('allow the bot-check widget only when it is on', () => {
    const view = {
      projectName: 'Acme',
      slug: 'acme',
      referrerCode: null,
      turnstileSiteKey: 'site-key-1',
      canonical: 'https://launch.test/w/acme',
    };
    const page = signupFormPage(view);
    expect(bodyOf(page)).toContain('data-sitekey="site-key-1"');
    expect(page.headers['Content-Security-Policy']).toContain('script-src https://challenges.cloudflare.com');
    expect(pageContentSecurityPolicy()).toContain("form-action 'self'");
  });

  it('never use the unescaped Mustache forms', () => {
    for (const file of [join(__dirname, 'waitlist-pages.ts'), join(__dirname, '../../common/html/html-page.ts')]) {
      expect(readFileSync(file, 'utf8')).not.toMatch(/\{\{\{|\{\{&/);
    }
  });
});
