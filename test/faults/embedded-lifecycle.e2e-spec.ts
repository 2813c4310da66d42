import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServerProcess, runCli, startServerProcess } from '../support/server-process';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// A child-process test may wait for the run's background build (global setup).
const TIMEOUT_MS = 240_000;

/** The server on the embedded defaults (no DATABASE_URL, no REDIS_URL) in a folder of its own. */
async function embeddedServer(dataDir: string): Promise<ServerProcess> {
  return startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
}

describe('the embedded database across Ctrl-C and the operator CLI', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'launch-embedded-'));
  });
  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'a second SIGINT during shutdown does not cut it short, and one press delivered twice is one: exit 0, lock released, data reopens',
    async () => {
      server = await embeddedServer(dataDir);
      expect(existsSync(join(dataDir, 'embedded.lock'))).toBe(true);
      // A request half sent holds the drain open (it is answered, not cut), so both signals
      // certainly land while the server is shutting down, however fast the machine is.
      const client = connect(server.port, '127.0.0.1');
      await new Promise((resolve) => client.once('connect', resolve));
      client.write('GET /v1/_health HTTP/1.1\r\nHost: localhost\r\n');
      let answer = '';
      client.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      // One Ctrl-C under npm: the terminal's SIGINT and npm's copy of it, back to back.
      server.child.kill('SIGINT');
      server.child.kill('SIGINT');
      await sleep(300);
      // A second press.
      server.child.kill('SIGINT');
      await sleep(300);
      expect(server.child.exitCode).toBeNull();
      client.write('\r\n');
      expect(await server.exited).toBe(0);
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(answer).toMatch(/connection: close/i);
      client.destroy();
      expect(existsSync(join(dataDir, 'embedded.lock'))).toBe(false);
      expect(server.output().match(/SIGINT again: still closing/g)).toHaveLength(1);
      expect(server.output()).toContain('closed, the embedded database last');
      // The data files were closed properly: the CLI opens them and finds the demo project.
      const listed = await runCli({ DATA_DIR: dataDir }, 'project:list');
      expect(listed.projects).toEqual([expect.objectContaining({ project_slug: 'demo', plan: 'builder' })]);
    },
    TIMEOUT_MS,
  );

  it(
    'the CLI works through the running server, whose next start reminds how to get keys',
    async () => {
      server = await embeddedServer(dataDir);
      const lock = JSON.parse(readFileSync(join(dataDir, 'embedded.lock'), 'utf8')) as { pid: number; url: string };
      expect(lock).toEqual({ pid: server.child.pid, url: expect.stringMatching(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/) });

      const listed = await runCli({ DATA_DIR: dataDir }, 'project:list');
      expect(listed.projects).toEqual([expect.objectContaining({ project_slug: 'demo' })]);
      const created = await runCli({ DATA_DIR: dataDir }, 'key:create', '--project', 'demo', '--type', 'secret');
      const res = await fetch(`${server.url}/v1/setup-check`, { headers: { authorization: `Bearer ${created.key as string}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { project_slug: string } }).data.project_slug).toBe('demo');
      expect(await server.stop('SIGTERM')).toBe(0);

      server = await embeddedServer(dataDir);
      const restarted = server;
      for (let waited = 0; waited < 5_000 && !restarted.output().includes('project:list'); waited += 100) await sleep(100);
      expect(server.output()).not.toContain('svc_live_');
      expect(server.output()).toContain('npm run -s cli -- project:list');
      expect(server.output()).toContain('key:create --project demo --type secret');
    },
    TIMEOUT_MS,
  );
});
