import { mailingSkipReason } from './mailing-rules';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const ENTRY = { status: 'published', audience: 'public', notifySubscribers: true, expiresAt: null } as const;

describe('mailingSkipReason', () => {
  it('lets a published, public, unexpired entry with notify_subscribers go out on Indie and up', () => {
    expect(mailingSkipReason(ENTRY, 'indie', NOW)).toBeNull();
    expect(mailingSkipReason({ ...ENTRY, expiresAt: new Date('2026-12-01T00:00:00Z') }, 'builder', NOW)).toBeNull();
  });

  it.each([
    [{ ...ENTRY, status: 'archived' as const }, 'indie', /archived/],
    [{ ...ENTRY, audience: 'signed_in' as const }, 'indie', /only public/],
    [{ ...ENTRY, audience: 'segment' as const }, 'builder', /only public/],
    [{ ...ENTRY, notifySubscribers: false }, 'indie', /notify_subscribers/],
    [{ ...ENTRY, expiresAt: NOW }, 'indie', /expired/],
    [ENTRY, 'free', /free plan/],
  ] as const)('skips %o on %s', (entry, plan, reason) => {
    expect(mailingSkipReason(entry, plan, NOW)).toMatch(reason);
  });

  it('skips a deleted entry', () => {
    expect(mailingSkipReason(null, 'indie', NOW)).toMatch(/no longer exists/);
  });
});
