import { htmlPage } from '../../common/html/html-page';
import type { RawReply } from '../../common/http/reply';

/**
 * The waitlist's pages: behind the links in its emails, and the hosted signup page. Mustache
 * templates (common/html/html-page.ts): every `{{value}}` is escaped. Form actions are relative, so
 * the pages work on whatever address (or path prefix) the service is reached at.
 */

// Cloudflare Turnstile: the widget's script, and the origin its script and frame come from.
const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';
const TURNSTILE_SCRIPT = `${TURNSTILE_ORIGIN}/turnstile/v0/api.js`;
/** The field the widget adds to the form it sits in. */
export const TURNSTILE_FORM_FIELD = 'cf-turnstile-response';

/** What a GET of a link shows: nothing changes until the person presses the button (mail scanners only GET). */
export function confirmPromptPage(waitlistName: string, token: string): RawReply {
  return htmlPage(
    'Confirm your email',
    `<p>Confirm your spot on {{waitlistName}}.</p>
<form method="post" action="confirm?token={{token}}"><button type="submit">Confirm my email</button></form>`,
    { waitlistName, token },
  );
}

export function confirmedPage(waitlistName: string, position: number): RawReply {
  return htmlPage('Email confirmed', '<p>Your spot on {{waitlistName}} is confirmed. You are number {{position}} in line.</p>', {
    waitlistName,
    position,
  });
}

export function unsubscribePromptPage(waitlistName: string, token: string): RawReply {
  return htmlPage(
    'Unsubscribe',
    `<p>Leave {{waitlistName}} and get no more emails about it?</p>
<form method="post" action="unsubscribe?token={{token}}"><button type="submit">Unsubscribe</button></form>`,
    { waitlistName, token },
  );
}

export function unsubscribedPage(waitlistName: string): RawReply {
  return htmlPage('Unsubscribed', '<p>You have left {{waitlistName}} and will get no more emails about it.</p>', { waitlistName });
}

export function unknownWaitlistPage(): RawReply {
  return htmlPage('Waitlist not found', '<p>There is no waitlist at this address. Check the link you followed.</p>', {}, { status: 404 });
}

interface SignupFormView {
  projectName: string;
  slug: string;
  /** The referral code from the link, already checked; null when absent or malformed. */
  referrerCode: string | null;
  email?: string;
  error?: string;
  status?: number;
  /** The bot-check site key, when the bot check is on. */
  turnstileSiteKey: string | null;
  /** The page's address without the referral code: `{base_url}/w/{slug}`, or on the custom domain it is served on. */
  canonical: string;
}

const SIGNUP_FORM = `<p>Join the waitlist for {{projectName}}.</p>
{{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
<form method="post" action="{{slug}}">
<label for="email">Email address</label>
<input id="email" name="email" type="email" required maxlength="254" autocomplete="email" value="{{email}}">
{{#referrerCode}}<input type="hidden" name="ref" value="{{referrerCode}}">{{/referrerCode}}
{{#turnstileSiteKey}}<div class="cf-turnstile" data-sitekey="{{turnstileSiteKey}}"></div>{{/turnstileSiteKey}}
<button type="submit">Join the waitlist</button>
</form>`;

export function signupFormPage(view: SignupFormView): RawReply {
  const widget = view.turnstileSiteKey !== null;
  return htmlPage(`${view.projectName} waitlist`, SIGNUP_FORM, view, {
    status: view.status,
    widgetOrigins: widget ? [TURNSTILE_ORIGIN] : [],
    scripts: widget ? [TURNSTILE_SCRIPT] : [],
    canonical: view.canonical,
  });
}

interface SignupDoneView {
  projectName: string;
  position: number;
  referralLink: string;
}

const SIGNUP_DONE = `<p>You are on the {{projectName}} waitlist at position <strong id="position">{{position}}</strong>.</p>
<p>We sent you an email: confirm your address with the link in it.</p>
<p>Share your referral link:</p>
<p class="link"><a id="referral-link" href="{{referralLink}}">{{referralLink}}</a></p>`;

export function signupDonePage(view: SignupDoneView): RawReply {
  return htmlPage("You're on the list", SIGNUP_DONE, view, { status: 201 });
}
