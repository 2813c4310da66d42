import { createTestDatabase, TestDatabase } from '../support/test-database';
import { runCli, ServerProcess, startServerProcess } from '../support/server-process';

describe('the service as a child process', () => {
  let db: TestDatabase;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await db.drop();
  });

  it('starts on a test database, serves a key made by the CLI, and exits 0 on SIGTERM', async () => {
    server = await startServerProcess({ DATABASE_URL: db.url });
    const created = await runCli({ DATABASE_URL: db.url }, 'project:create', '--name', 'Child', '--plan', 'indie');
    const res = await fetch(`${server.url}/v1/setup-check`, { headers: { authorization: `Bearer ${created.secret_key}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { project_id: string } }).data.project_id).toBe(created.project_id);
    expect(await server.stop('SIGTERM')).toBe(0);
  }, 180_000); // may wait for the background build of this run
});
