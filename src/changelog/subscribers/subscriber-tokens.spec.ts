import { hashLinkToken } from '../../common/email-links/link-tokens';
import { issueSubscriberLinks, subscriberConfirmUrl, subscriberPreferencesUrl, subscriberUnsubscribeUrl } from './subscriber-tokens';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const SUBSCRIBER = { id: 'sub_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', projectId: 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' };

describe('issueSubscriberLinks', () => {
  it('issues confirm, unsubscribe and labels tokens for a confirmation email, stored hashed', () => {
    const links = issueSubscriberLinks(SUBSCRIBER, NOW, true);
    const row = (purpose: string, token: string | null) => ({
      tokenHash: hashLinkToken(token ?? ''),
      projectId: SUBSCRIBER.projectId,
      subscriberId: SUBSCRIBER.id,
      purpose,
      createdAt: NOW,
    });
    expect(links.rows).toEqual([row('confirm', links.confirm), row('unsubscribe', links.unsubscribe), row('labels', links.labels)]);
    expect(new Set([links.confirm, links.unsubscribe, links.labels]).size).toBe(3);
  });

  it('issues no confirm token for an entry email, and new tokens for every email', () => {
    const first = issueSubscriberLinks(SUBSCRIBER, NOW, false);
    const second = issueSubscriberLinks(SUBSCRIBER, NOW, false);
    expect(first.confirm).toBeNull();
    expect(first.rows.map((row) => row.purpose)).toEqual(['unsubscribe', 'labels']);
    expect(second.unsubscribe).not.toBe(first.unsubscribe);
  });
});

describe('subscriber link urls', () => {
  it('point at the public link routes on the base url', () => {
    expect(subscriberConfirmUrl('https://launch.test', 'abc')).toBe('https://launch.test/v1/changelog/subscribers/confirm?token=abc');
    expect(subscriberUnsubscribeUrl('https://launch.test', 'abc')).toBe(
      'https://launch.test/v1/changelog/subscribers/unsubscribe?token=abc',
    );
    expect(subscriberPreferencesUrl('https://launch.test', 'abc')).toBe(
      'https://launch.test/v1/changelog/subscribers/preferences?token=abc',
    );
  });
});
