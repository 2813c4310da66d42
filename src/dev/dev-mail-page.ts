import { htmlPage } from '../common/html/html-page';
import type { RawReply } from '../common/http/reply';
import type { DevMailDto } from './dev-mail.service';

const CONTENT = `<p>The last {{count}} emails of every project, newest first. Development only: this page exists
while <code>DEV_MAIL</code> is on (by default under <code>npm start</code>) and answers this machine only. Without
<code>SMTP_URL</code> no email leaves the service.</p>
{{^messages}}<p>No mail yet. Sign up to a waitlist (README, "Run it"), then reload.</p>{{/messages}}
{{#messages}}<hr>
<p><strong>{{subject}}</strong><br>to {{to}} · {{kind}} · {{status}} · {{created_at}}</p>
{{#links.length}}<ul>{{#links}}<li><a class="link" href="{{.}}">{{.}}</a></li>{{/links}}</ul>{{/links.length}}
{{^links}}<p>No links in this email.</p>{{/links}}
{{/messages}}`;

/** GET /dev/mail for a browser: every link is clickable, so a confirmation is one click away. */
export function devMailPage(messages: DevMailDto[]): RawReply {
  return htmlPage('Mail (development)', CONTENT, { count: messages.length, messages });
}
