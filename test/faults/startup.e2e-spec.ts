import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorLogLines, freePort, runToExit } from '../support/server-process';

// A child-process test may wait for the run's background build (global setup).
const BUILD_TIMEOUT_MS = 180_000;

describe('start-up with a backend that does not answer', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'launch-startup-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it(
    'an unreachable DATABASE_URL ends the process with exit 1 and one line naming the setting and host, without the password',
    async () => {
      const ended = await runToExit('main.js', { DATABASE_URL: 'postgres://postgres:s3cret-pw@127.0.0.1:1/x', DATA_DIR: dataDir }, 20_000);
      expect(ended.code).toBe(1);
      // Exit code 1 already says it ended by itself (runToExit kills at 20 s); the bound is the
      // issue's "~10 s" with room for a loaded machine, where loading the modules alone takes seconds.
      expect(ended.ms).toBeLessThan(15_000);
      const errors = errorLogLines(ended.output);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ level: 60, setting: 'DATABASE_URL', reason: expect.stringContaining('ECONNREFUSED') });
      expect(errors[0].msg).toContain('DATABASE_URL: cannot connect to PostgreSQL at 127.0.0.1:1');
      expect(ended.output).not.toContain('s3cret-pw');
      expect(ended.output).not.toMatch(/\n\s+at /);
      expect(JSON.stringify(errors[0])).not.toMatch(/"(err|stack)"/);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'the worker and the CLI fail the same way (the CLI on stderr, leaving stdout empty)',
    async () => {
      const env = { DATABASE_URL: 'postgres://postgres:s3cret-pw@127.0.0.1:1/x', DATA_DIR: dataDir };
      for (const [script, args] of [
        ['worker.js', []],
        ['cli.js', ['project:list', '--json']],
      ] as const) {
        const ended = await runToExit(script, env, 20_000, ...args);
        expect({ script, code: ended.code }).toEqual({ script, code: 1 });
        const errors = errorLogLines(ended.output);
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({ setting: 'DATABASE_URL', msg: expect.stringContaining('127.0.0.1:1') });
        expect(ended.output).not.toContain('s3cret-pw');
        if (script === 'cli.js') expect(ended.stdout).toBe('');
      }
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'an unreachable REDIS_URL does the same, instead of retrying for ever',
    async () => {
      const ended = await runToExit('main.js', { REDIS_URL: 'redis://:s3cret-pw@127.0.0.1:1', DATA_DIR: dataDir }, 20_000);
      expect(ended.code).toBe(1);
      // Exit code 1 already says it ended by itself (runToExit kills at 20 s); the bound is the
      // issue's "~10 s" with room for a loaded machine, where loading the modules alone takes seconds.
      expect(ended.ms).toBeLessThan(15_000);
      const errors = errorLogLines(ended.output);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ setting: 'REDIS_URL', reason: expect.stringContaining('ECONNREFUSED') });
      expect(errors[0].msg).toContain('REDIS_URL: cannot connect to Redis at 127.0.0.1:1');
      expect(ended.output).not.toContain('s3cret-pw');
      expect(ended.output).not.toMatch(/\n\s+at /);
      // Checked before the embedded database opens: nothing is left holding the data folder.
      expect(existsSync(join(dataDir, 'embedded.lock'))).toBe(false);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'a port in use is named as PORT, in one line',
    async () => {
      const port = await freePort();
      const blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(port, resolve));
      try {
        const ended = await runToExit('main.js', { PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'error' }, 60_000);
        expect(ended.code).toBe(1);
        const errors = errorLogLines(ended.output);
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({ setting: 'PORT', msg: expect.stringContaining(`PORT: ${port} is already in use`) });
        expect(existsSync(join(dataDir, 'embedded.lock'))).toBe(false);
      } finally {
        blocker.close();
      }
    },
    BUILD_TIMEOUT_MS,
  );
});
