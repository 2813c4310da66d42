import { invalidLinkPage } from '../../common/email-links/invalid-link-page';
import { htmlPage } from '../../common/html/html-page';
import type { RawReply } from '../../common/http/reply';

/**
 * The pages behind the links in changelog emails. Mustache templates (common/html/html-page.ts):
 * every `{{value}}` is escaped. Form actions are relative, so the pages work on whatever address
 * the service is reached at. A GET only shows a page; its button POSTs (mail scanners only GET).
 */

export function subscriberLinkInvalidPage(): RawReply {
  return invalidLinkPage('If you already unsubscribed, nothing more is needed: you get no more emails.');
}

export function confirmPromptPage(projectName: string, token: string): RawReply {
  return htmlPage(
    'Confirm your subscription',
    `<p>Get the {{projectName}} changelog by email?</p>
<form method="post" action="confirm?token={{token}}"><button type="submit">Confirm my subscription</button></form>`,
    { projectName, token },
  );
}

export function confirmedPage(projectName: string): RawReply {
  return htmlPage('Subscription confirmed', '<p>You will get the {{projectName}} changelog by email.</p>', { projectName });
}

export function unsubscribePromptPage(projectName: string, token: string): RawReply {
  return htmlPage(
    'Unsubscribe',
    `<p>Stop getting the {{projectName}} changelog by email?</p>
<form method="post" action="unsubscribe?token={{token}}"><button type="submit">Unsubscribe</button></form>`,
    { projectName, token },
  );
}

export function unsubscribedPage(projectName: string): RawReply {
  return htmlPage('Unsubscribed', '<p>You will get no more emails about the {{projectName}} changelog.</p>', { projectName });
}

interface TopicChoice {
  slug: string;
  name: string;
  followed: boolean;
}

interface PreferencesView {
  projectName: string;
  token: string;
  topics: TopicChoice[];
  saved: boolean;
}

const PREFERENCES = `{{#saved}}<p role="status"><strong>Saved.</strong></p>{{/saved}}
<p>Choose what the {{projectName}} changelog emails you about. Choose nothing to get every update.</p>
<form method="post" action="preferences?token={{token}}">
{{#topics}}<label><input type="checkbox" name="labels" value="{{slug}}"{{#followed}} checked{{/followed}}> {{name}}</label>
{{/topics}}{{^topics}}<p>This changelog has no topics yet: you get every update.</p>
{{/topics}}<button type="submit">Save</button>
</form>`;

export function preferencesPage(view: PreferencesView): RawReply {
  return htmlPage('Your changelog topics', PREFERENCES, view);
}
