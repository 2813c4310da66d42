import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRootLogger, jsonLogDestination, LOG_FLUSH_INTERVAL_MS } from './logger';

describe('JSON log lines', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'launch-log-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reach the output within the flush interval on a quiet server, not only once 4 KB have gathered', async () => {
    const path = join(dir, 'out.log');
    const fd = openSync(path, 'w');
    const destination = jsonLogDestination(fd);
    try {
      const logger = createRootLogger({ logLevel: 'info', logToStderr: false }, destination);
      logger.info({ request_id: 'req_1', status: 500 }, 'request failed');
      // Buffered at first: a request never waits on the write.
      expect(readFileSync(path, 'utf8')).toBe('');
      const deadline = Date.now() + LOG_FLUSH_INTERVAL_MS * 3;
      while (readFileSync(path, 'utf8') === '' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const [line] = readFileSync(path, 'utf8').trim().split('\n');
      expect(JSON.parse(line)).toMatchObject({ level: 30, request_id: 'req_1', status: 500, msg: 'request failed', pid: process.pid });
    } finally {
      // Closes the file too.
      (destination as unknown as { destroy(): void }).destroy();
    }
  });

  it('writes every line whole and in order, multi-byte characters included, past the 4 KB buffer', async () => {
    const path = join(dir, 'many.log');
    const destination = jsonLogDestination(openSync(path, 'w'));
    try {
      const logger = createRootLogger({ logLevel: 'info', logToStderr: false }, destination);
      for (let index = 0; index < 200; index += 1) logger.info({ index, text: 'é😀 ✓ ü' }, 'line');
      await new Promise<void>((resolve, reject) => logger.flush((error) => (error ? reject(error) : resolve())));
      const lines = readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { index: number; text: string });
      expect(lines.map((line) => line.index)).toEqual([...Array(200).keys()]);
      expect(new Set(lines.map((line) => line.text))).toEqual(new Set(['é😀 ✓ ü']));
    } finally {
      (destination as unknown as { destroy(): void }).destroy();
    }
  });
});
