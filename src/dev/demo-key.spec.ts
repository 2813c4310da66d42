import { PUBLISHABLE_LIVE_KEY_SHAPE } from '../auth/api-key-format';
import { demoPublishableKey } from './demo-key';

describe('demoPublishableKey', () => {
  const key = Buffer.alloc(32, 7);

  it('is a live publishable key, the same for the same server key and project', () => {
    const made = demoPublishableKey(key, 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M');
    expect(made).toMatch(PUBLISHABLE_LIVE_KEY_SHAPE);
    expect(demoPublishableKey(Buffer.alloc(32, 7), 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M')).toBe(made);
  });

  it('differs per project and per server key', () => {
    const made = demoPublishableKey(key, 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M');
    expect(demoPublishableKey(key, 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1N')).not.toBe(made);
    expect(demoPublishableKey(Buffer.alloc(32, 8), 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M')).not.toBe(made);
  });
});
