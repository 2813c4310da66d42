import { Writable } from 'node:stream';
import { ProbeModule } from '../support/probe.module';
import { TestApp } from '../support/test-app';

/** Collects the JSON log lines the application writes. */
class LogLines extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
}

/**
 * Which address the per-IP limits count, read from the browser limit's X-RateLimit-Remaining:
 * each call answers how much of its address's budget is left, so two calls counted under one
 * address answer n and n - 1. The test client connects from loopback.
 */
async function remainingFor(t: TestApp, forwardedFor?: string): Promise<number> {
  const call = t.api.post('/v1/_probe/public');
  if (forwardedFor !== undefined) call.set('X-Forwarded-For', forwardedFor);
  const res = await call.expect(200);
  return Number(res.headers['x-ratelimit-remaining']);
}

const FRESH = 119; // BROWSER_RATE_LIMIT's default 120, less the call itself

describe('TRUST_PROXY', () => {
  describe('unset', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start({ imports: [ProbeModule] });
    });
    afterAll(() => t.close());

    it('ignores X-Forwarded-For: every claimed address is counted as the peer that sent it', async () => {
      const first = await remainingFor(t, '198.51.100.1');
      expect(await remainingFor(t, '198.51.100.2')).toBe(first - 1);
      expect(await remainingFor(t, '2001:db8:1::1, 198.51.100.3')).toBe(first - 2);
      expect(await remainingFor(t)).toBe(first - 3);
    });
  });

  describe('set to proxies that do not include the peer', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start({ imports: [ProbeModule], env: { TRUST_PROXY: '10.0.0.0/8, 192.0.2.7' } });
    });
    afterAll(() => t.close());

    it('ignores what an untrusted peer says in X-Forwarded-For', async () => {
      const first = await remainingFor(t, '198.51.100.1');
      expect(await remainingFor(t, '198.51.100.2, 10.0.0.1')).toBe(first - 1);
      expect(await remainingFor(t)).toBe(first - 2);
    });
  });

  describe('set to a hop count', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start({ imports: [ProbeModule], env: { TRUST_PROXY: '2' } });
    });
    afterAll(() => t.close());

    it('takes the address that many hops back, whatever the client wrote before it', async () => {
      // The peer and the proxy before it are trusted; the client's own entries further left are not.
      expect(await remainingFor(t, '192.0.2.1, 203.0.113.10, 10.0.0.2')).toBe(FRESH);
      expect(await remainingFor(t, '198.51.100.77, 203.0.113.10, 10.0.0.9')).toBe(FRESH - 1);
      expect(await remainingFor(t, '203.0.113.10, 10.0.0.3')).toBe(FRESH - 2);
      expect(await remainingFor(t, '203.0.113.10, 203.0.113.11, 10.0.0.2')).toBe(FRESH);
    });
  });

  describe('set to addresses and CIDRs', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await TestApp.start({ imports: [ProbeModule], env: { TRUST_PROXY: '127.0.0.1,::1,10.0.0.0/8' } });
    });
    afterAll(() => t.close());

    it('believes only the listed proxies', async () => {
      // Every hop after the client is a listed proxy: the client is the first address that is not.
      expect(await remainingFor(t, '192.0.2.1, 203.0.113.20, 10.1.2.3')).toBe(FRESH);
      expect(await remainingFor(t, '203.0.113.20, 10.200.0.1, 10.0.0.1')).toBe(FRESH - 1);
      // 192.0.2.99 is not a listed proxy: it is the client, and what it claims is not believed.
      expect(await remainingFor(t, '203.0.113.20, 192.0.2.99')).toBe(FRESH);
      expect(await remainingFor(t, '192.0.2.99')).toBe(FRESH - 1);
      expect(await remainingFor(t, '203.0.113.20')).toBe(FRESH - 2);
    });
  });

  describe('set to true', () => {
    let t: TestApp;
    const log = new LogLines();
    beforeAll(async () => {
      t = await TestApp.start({ imports: [ProbeModule], env: { TRUST_PROXY: 'true', LOG_LEVEL: 'warn' }, logDestination: log });
    });
    afterAll(() => t.close());

    it('trusts exactly one hop, and says so at start', async () => {
      expect(await remainingFor(t, '192.0.2.1, 203.0.113.30')).toBe(FRESH);
      expect(await remainingFor(t, '192.0.2.2, 203.0.113.30')).toBe(FRESH - 1);
      expect(await remainingFor(t, '203.0.113.30')).toBe(FRESH - 2);
      const warnings = log.lines.filter((line) => line.context === 'Config' && line.level === 40);
      expect(warnings.map((line) => line.msg)).toEqual([
        expect.stringMatching(/^TRUST_PROXY=true trusts exactly one proxy hop: .*precisely\.$/),
      ]);
    });

    it('counts IPv6 clients of one /64 under one browser limit', async () => {
      expect(await remainingFor(t, '2001:db8:7:1::1')).toBe(FRESH);
      expect(await remainingFor(t, '2001:db8:7:1:ffff:ffff:ffff:fffe')).toBe(FRESH - 1);
      expect(await remainingFor(t, '2001:0db8:0007:0001::9')).toBe(FRESH - 2);
      expect(await remainingFor(t, '2001:db8:7:2::1')).toBe(FRESH);
      // An IPv4 address written as IPv6 is that IPv4 address.
      expect(await remainingFor(t, '203.0.113.31')).toBe(FRESH);
      expect(await remainingFor(t, '::ffff:203.0.113.31')).toBe(FRESH - 1);
    });
  });
});
