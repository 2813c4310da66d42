import { issueLinkToken } from '../../common/email-links/link-tokens';
import type { SubscriberTokenPurpose } from '../entities/changelog-subscriber-token.entity';
import type { SubscriberTokenRow } from './subscribers.queries';

/** The links of one email to one subscriber, and the rows that make them work. */
interface SubscriberLinks {
  /** Only in the confirmation email. */
  confirm: string | null;
  unsubscribe: string;
  /** Manage topics: the preferences page and `PUT /v1/changelog/subscribers/by-token/{token}/labels`. */
  labels: string;
  rows: SubscriberTokenRow[];
}

type TokenOwner = { id: string; projectId: string };

/**
 * Fresh tokens for one email: every email gets its own (stored hashed), and older links keep
 * working until the person unsubscribes (the tokens go with the subscriber).
 */
export function issueSubscriberLinks(subscriber: TokenOwner, now: Date, withConfirm: boolean): SubscriberLinks {
  const rows: SubscriberTokenRow[] = [];
  const issue = (purpose: SubscriberTokenPurpose): string => {
    const issued = issueLinkToken();
    rows.push({ tokenHash: issued.hash, projectId: subscriber.projectId, subscriberId: subscriber.id, purpose, createdAt: now });
    return issued.token;
  };
  const confirm = withConfirm ? issue('confirm') : null;
  return { confirm, unsubscribe: issue('unsubscribe'), labels: issue('labels'), rows };
}

const LINKS = '/v1/changelog/subscribers';

export function subscriberConfirmUrl(baseUrl: string, token: string): string {
  return `${baseUrl}${LINKS}/confirm?token=${token}`;
}

export function subscriberUnsubscribeUrl(baseUrl: string, token: string): string {
  return `${baseUrl}${LINKS}/unsubscribe?token=${token}`;
}

export function subscriberPreferencesUrl(baseUrl: string, token: string): string {
  return `${baseUrl}${LINKS}/preferences?token=${token}`;
}
