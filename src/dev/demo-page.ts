import { STYLE_SOURCE, renderHtml } from '../common/html/html-page';
import { RawReply } from '../common/http/reply';
import type { DemoSetup } from './demo.service';

const SCRIPTS = `<script src="{{cdn}}/v1/notifications.js" data-key="{{key}}"
        data-user-id="{{user_id}}" data-user-hash="{{user_hash}}"></script>
<script src="{{cdn}}/v1/changelog.js" data-key="{{key}}"
        data-user-id="{{user_id}}" data-user-hash="{{user_hash}}" data-show-badge></script>`;

const CONTENT = `<p>This server's two browser scripts on one page, wired to the demo project (<code>{{slug}}</code>)
for the signed-in person <code>{{user_id}}</code>, whose <code>user_hash</code> the server computed with the
project's notification signing secret (made by this page if the project had none: rotate it for one you can
copy). Development only: the page exists while <code>DEV_MAIL</code> is on and answers this machine only.</p>
{{#revoked}}<p class="error">The demo's publishable key (…{{last_four}}) was revoked: the scripts cannot load with it.</p>{{/revoked}}
<h2>Notifications</h2>
<p>The bell is the button in the corner. Send {{user_id}} a notification and watch its count go up:</p>
<form method="post" action="/demo/notifications"><button type="submit">Send a test notification</button></form>
{{#sent}}<p role="status">Sent: the bell shows it.</p>{{/sent}}
<h2>Changelog</h2>
<launch-changelog></launch-changelog>
<p>Nothing listed? Publish an entry with the demo project's secret key (shown by the first <code>npm start</code>)
and reload:</p>
<pre><code>curl -X POST {{base}}/v1/changelog/entries -H "Authorization: Bearer svc_live_…" \\
  -H "Content-Type: application/json" \\
  -d '{"title": "Dark mode", "body_markdown": "The dashboard follows your system theme.", "category": "feature"}'</code></pre>
<h2>What this page embeds</h2>
<pre><code>{{snippet}}</code></pre>
${SCRIPTS}`;

const MISSING = `<p>This server has no project with the slug <code>demo</code>. <code>npm start</code> creates it on
an empty embedded database; elsewhere, make one and reload:</p>
<pre><code>npm run cli -- project:create --name Demo --slug demo --plan builder</code></pre>`;

/**
 * The page's policy: the customer-page policy the scripts are built for (docs/browser-scripts.md: Embed the
 * bell, Embed the changelog) plus the layout's one hashed style and this page's own form.
 */
function demoPolicy(cdnUrl: string, publicBaseUrl: string): string {
  return [
    "default-src 'none'",
    `script-src ${cdnUrl}`,
    `connect-src ${publicBaseUrl}`,
    `img-src ${publicBaseUrl} https: data:`,
    `style-src ${STYLE_SOURCE}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The script tags as text, for the page to show what it embeds (escaped where it shows them). */
const snippetOf = (view: Record<string, string>) => SCRIPTS.replace(/\{\{(\w+)\}\}/g, (_, name: string) => view[name] ?? '');

/** GET /demo: both scripts as a page embeds them, or how to make the demo project. */
export function demoPage(setup: DemoSetup | null, sent: boolean, urls: { cdnUrl: string; publicBaseUrl: string }): RawReply {
  let html: string;
  if (setup) {
    const values = {
      cdn: setup.cdnUrl,
      base: setup.publicBaseUrl,
      key: setup.publishableKey,
      slug: setup.projectSlug,
      user_id: setup.userId,
      user_hash: setup.userHash,
      last_four: setup.publishableKey.slice(-4),
    };
    html = renderHtml('Demo (development)', CONTENT, { ...values, revoked: setup.keyRevoked, sent, snippet: snippetOf(values) });
  } else {
    html = renderHtml('Demo (development)', MISSING, {});
  }
  return new RawReply(html, 'text/html; charset=utf-8', 200, {
    'Content-Security-Policy': demoPolicy(urls.cdnUrl, urls.publicBaseUrl),
    'Cache-Control': 'no-store',
    // Not no-referrer: the button's post must carry this page's Origin (SameOriginFormGuard).
    'Referrer-Policy': 'same-origin',
  });
}
