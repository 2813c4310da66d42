import { htmlPage } from '../html/html-page';
import type { RawReply } from '../http/reply';

/** What every email link answers for an unknown token, or a token meant for another link. */
export function invalidLinkPage(hint = ''): RawReply {
  return htmlPage(
    'This link is not valid',
    '<p>The link may be incomplete. Open it again from the email, or copy the whole address.{{#hint}} {{hint}}{{/hint}}</p>',
    { hint },
    { status: 404 },
  );
}
