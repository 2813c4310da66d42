import { randomBytes } from 'node:crypto';
import { createTestDatabase, databaseUrl, TestDatabase, withAdminClient } from '../support/test-database';
import { runCli, ServerProcess, startServerProcess } from '../support/server-process';

describe('the service as a child process', () => {
  let db: TestDatabase;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  // Each test's server is stopped after it, whatever failed: a later test must not orphan it.
  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
  });
  afterAll(async () => {
    await db.drop();
  });

  it('starts on a test database, serves a key made by the CLI, and exits 0 on SIGTERM', async () => {
    server = await startServerProcess({ DATABASE_URL: db.url, LOG_LEVEL: 'info' });
    // The database was migrated before (a copy of the run's template) and holds no project.
    expect(await logLineOf(server, 'Database')).toMatch(/^schema up to date \(\d+ migrations\)$/);
    expect(await logLineOf(server, 'Setup')).toContain('npm run -s cli -- project:create --name "My product" --plan builder');
    const created = await runCli({ DATABASE_URL: db.url }, 'project:create', '--name', 'Child', '--plan', 'indie');
    const res = await fetch(`${server.url}/v1/setup-check`, { headers: { authorization: `Bearer ${created.secret_key}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { project_id: string } }).data.project_id).toBe(created.project_id);
    expect(await server.stop('SIGTERM')).toBe(0);
  }, 180_000); // may wait for the background build of this run

  // A server database to create an empty one on; the embedded mode's own start is embedded-lifecycle's.
  (process.env.DATABASE_URL ? it : it.skip)(
    'on an empty database runs every migration and logs each by name',
    async () => {
      const empty = `t_empty_${randomBytes(5).toString('hex')}`;
      await withAdminClient(process.env.DATABASE_URL as string, (client) => client.query(`CREATE DATABASE ${empty}`));
      const url = databaseUrl(process.env.DATABASE_URL as string, empty);
      try {
        server = await startServerProcess({ DATABASE_URL: url, LOG_LEVEL: 'info' });
        const ran = JSON.parse(
          server
            .output()
            .split('\n')
            .find((line) => line.includes('"migrations":[')) ?? '{}',
        ) as {
          msg?: string;
          migrations?: string[];
        };
        expect(ran.migrations?.length).toBeGreaterThan(10);
        expect(ran.msg).toBe(`ran ${ran.migrations?.length} of ${ran.migrations?.length} migrations: ${ran.migrations?.join(', ')}`);
        expect(await server.stop('SIGTERM')).toBe(0);
      } finally {
        await server?.stop('SIGKILL');
        await withAdminClient(process.env.DATABASE_URL as string, (client) =>
          client.query(`DROP DATABASE IF EXISTS ${empty} WITH (FORCE)`),
        );
      }
    },
    180_000,
  );
});

/** The message of the first JSON log line of `context`. */
function logLine(output: string, context: string): string | undefined {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { context?: string; msg?: string };
    if (entry.context === context) return entry.msg;
  }
  return undefined;
}

/** The same, waiting up to 5 s: the server may answer /v1/_health before its start-up lines are flushed. */
async function logLineOf(server: ServerProcess, context: string): Promise<string | undefined> {
  for (let waited = 0; waited < 5_000; waited += 50) {
    const found = logLine(server.output(), context);
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}
