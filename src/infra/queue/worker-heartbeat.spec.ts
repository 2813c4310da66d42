import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HEARTBEAT_MAX_AGE_MS, checkWorkerHeartbeat, heartbeatPath } from './worker-heartbeat';

describe('checkWorkerHeartbeat', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'heartbeat-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('fails without a heartbeat file', () => {
    expect(checkWorkerHeartbeat(dir)).toBe(1);
  });

  it('passes on a fresh heartbeat and fails on a stale one', () => {
    writeFileSync(heartbeatPath(dir), 'beat\n');
    expect(checkWorkerHeartbeat(dir)).toBe(0);
    const stale = (Date.now() - HEARTBEAT_MAX_AGE_MS - 5_000) / 1000;
    utimesSync(heartbeatPath(dir), stale, stale);
    expect(checkWorkerHeartbeat(dir)).toBe(1);
  });
});
