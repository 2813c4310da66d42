import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userHashOf } from '../support/notification-seed';
import { type ServerProcess, errorLogLines, runCli, runToExit, startServerProcess } from '../support/server-process';
import { type TestDatabase, createTestDatabase } from '../support/test-database';

// A child-process test may wait for the run's background build (global setup).
const BUILD_TIMEOUT_MS = 240_000;
const PRODUCTION_REFUSAL = /^Invalid configuration: - ENCRYPTION_KEY is required with NODE_ENV=production/;

describe('ENCRYPTION_KEY at start, as real processes', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'launch-key-startup-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it(
    'with NODE_ENV=production and no ENCRYPTION_KEY, the server and the worker refuse to start in one line, inventing no key',
    async () => {
      for (const script of ['main.js', 'worker.js']) {
        const ended = await runToExit(script, { NODE_ENV: 'production', DATA_DIR: dataDir }, 30_000);
        expect({ script, code: ended.code }).toEqual({ script, code: 1 });
        const errors = errorLogLines(ended.output);
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({ level: 60, problems: [expect.stringContaining('ENCRYPTION_KEY is required')] });
        expect(errors[0].msg).toMatch(PRODUCTION_REFUSAL);
        expect(ended.output).not.toMatch(/\n\s+at /);
      }
      expect(existsSync(join(dataDir, 'encryption.key'))).toBe(false);
      expect(existsSync(join(dataDir, 'embedded.lock'))).toBe(false);
    },
    BUILD_TIMEOUT_MS,
  );

  describe('a key change on a deployment', () => {
    const keyA = randomBytes(32).toString('base64');
    const keyB = randomBytes(32).toString('base64');
    let db: TestDatabase;
    let server: ServerProcess | null = null;

    beforeAll(async () => {
      db = await createTestDatabase();
    });
    afterAll(async () => {
      await server?.stop('SIGKILL');
      await db.drop();
    });

    it(
      'seal under A, re-seal to B with the CLI (keys from the environment), then B starts and opens them while A is refused',
      async () => {
        server = await startServerProcess({ DATABASE_URL: db.url, ENCRYPTION_KEY: keyA });
        // The CLI in production without ENCRYPTION_KEY still runs the commands that open no secret.
        const created = await runCli(
          { DATABASE_URL: db.url, NODE_ENV: 'production' },
          'project:create',
          '--name',
          'Keys',
          '--plan',
          'indie',
        );
        const secretRes = await fetch(`${server.url}/v1/notifications/signing-secret`, {
          method: 'POST',
          headers: { authorization: `Bearer ${String(created.secret_key)}` },
        });
        expect(secretRes.status).toBe(201);
        const signingSecret = ((await secretRes.json()) as { data: { signing_secret: string } }).data.signing_secret;
        await server.stop();
        server = null;

        const resealed = await runCli({ DATABASE_URL: db.url, ENCRYPTION_KEY: keyB, ENCRYPTION_KEY_PREVIOUS: keyA }, 'encryption:reseal');
        expect(resealed).toEqual({
          resealed: { idempotency_records: 0, notification_signing_secrets: 1, revenue_connections: 0, webhook_endpoints: 0 },
          unchanged: { idempotency_records: 0, notification_signing_secrets: 0, revenue_connections: 0, webhook_endpoints: 0 },
        });

        for (const script of ['main.js', 'worker.js']) {
          const refused = await runToExit(script, { DATABASE_URL: db.url, ENCRYPTION_KEY: keyA, LOG_LEVEL: 'warn' }, 60_000);
          expect({ script, code: refused.code }).toEqual({ script, code: 1 });
          const errors = errorLogLines(refused.output);
          expect(errors).toHaveLength(1);
          expect(errors[0]).toMatchObject({ level: 60, setting: 'ENCRYPTION_KEY' });
          expect(errors[0].msg).toMatch(/^ENCRYPTION_KEY is not the key this database's secrets are sealed with .*encryption:reseal/);
          expect(refused.output).not.toContain(keyA);
          expect(refused.output).not.toMatch(/\n\s+at /);
        }

        server = await startServerProcess({ DATABASE_URL: db.url, ENCRYPTION_KEY: keyB });
        const bell = await fetch(`${server.url}/v1/notifications/unread/count?user_id=ada`, {
          headers: { authorization: `Bearer ${String(created.publishable_key)}`, 'x-service-user-hash': userHashOf('ada', signingSecret) },
        });
        expect(bell.status).toBe(200);
      },
      BUILD_TIMEOUT_MS,
    );
  });
});
