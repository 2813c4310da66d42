import { RESEND_INTERVAL_MS, resendWaitMs } from './resend-interval';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);

describe('resendWaitMs', () => {
  it('lets a signup that never got an email (an import) have one now', () => {
    expect(resendWaitMs(null, NOW)).toBe(0);
  });

  it('waits out the rest of the 5 minutes after the last email, and no longer', () => {
    expect(resendWaitMs(NOW, NOW)).toBe(RESEND_INTERVAL_MS);
    expect(resendWaitMs(ago(60_000), NOW)).toBe(240_000);
    expect(resendWaitMs(ago(RESEND_INTERVAL_MS), NOW)).toBe(0);
    expect(resendWaitMs(ago(RESEND_INTERVAL_MS + 1), NOW)).toBe(0);
  });
});
