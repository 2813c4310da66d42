import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ChangelogEntryEntity } from '../../src/changelog/entities/changelog-entry.entity';
import { ensureBuild, freePort } from '../support/server-process';
import { TestApp, type SeededProject } from '../support/test-app';
import { type AgentClient, failure, ok, wrap } from './mcp-clients';

/** `npm run cli -- mcp --project <slug>` (here: node dist/cli.js mcp …) driven by both SDKs' stdio clients. */
describe('MCP over stdio (the CLI)', () => {
  let t: TestApp;
  let owner: SeededProject;
  let cli: string;
  let port: number;

  beforeAll(async () => {
    t = await TestApp.start();
    owner = await t.seedProject({ plan: 'indie', slug: 'mcp-stdio' });
    cli = join(await ensureBuild(), 'cli.js');
    port = await freePort();
  });
  afterAll(() => t.close());

  const environment = (): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    DATABASE_URL: t.config.databaseUrl as string,
    ...(t.config.redisUrl ? { REDIS_URL: t.config.redisUrl } : {}),
    QUEUE_PREFIX: t.config.queuePrefix,
    ENCRYPTION_KEY: (t.config.encryptionKey as Buffer).toString('base64'),
    PUBLIC_BASE_URL: 'https://launch.test',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    // The CLI opens no HTTP server: nothing may listen here.
    PORT: String(port),
  });

  const stderrOf = (stream: Readable | null) => {
    let text = '';
    stream?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    return () => text;
  };

  const listening = (at: number) =>
    new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port: at });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });

  async function exercise(client: AgentClient, stderr: () => string): Promise<void> {
    expect((await client.listTools()).length).toBe(25);
    expect(await ok(client, 'setup_check')).toMatchObject({ project_id: owner.project.id, project_slug: 'mcp-stdio' });
    const draft = await ok(client, 'create_changelog_entry', {
      title: `Over stdio ${client.name}`,
      body_markdown: 'Hello.',
      category: 'fix',
    });
    const preview = await ok(client, 'publish_changelog_entry', { id: draft.id });
    expect(preview).toMatchObject({ requires_confirmation: true });
    expect((await t.db.manager.findOneByOrFail(ChangelogEntryEntity, { id: draft.id as string })).status).toBe('draft');
    expect(await ok(client, 'publish_changelog_entry', { id: draft.id, confirm: true })).toMatchObject({ status: 'published' });
    expect(await failure(client, 'get_changelog_entry', { id: 'ce_00000000000000000000000000' })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await listening(port)).toBe(false);
    // pino writes stderr asynchronously: the line of the last call may come a moment after its answer.
    const logged = () =>
      stderr()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .some((line) => line.via === 'mcp' && line.mcp_tool === 'publish_changelog_entry' && line.project_id === owner.project.id);
    for (let waited = 0; !logged() && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logged()).toBe(true);
  }

  it('serves the v1 client: only protocol on stdout, logs on stderr, no port', async () => {
    const transport = new StdioTransportV1({
      command: process.execPath,
      args: [cli, 'mcp', '--project', 'mcp-stdio'],
      env: environment(),
      stderr: 'pipe',
    });
    const stderr = stderrOf(transport.stderr as Readable | null);
    const client = new ClientV1({ name: 'stdio-v1', version: '1.0.0' });
    // The v1 transport fails the connection on any stdout line that is not JSON-RPC.
    await client.connect(transport);
    const agent = wrap('v1', client);
    try {
      await exercise(agent, stderr);
    } finally {
      await agent.close();
    }
  });

  it('serves the v2 client', async () => {
    const transport = new StdioTransportV2({
      command: process.execPath,
      args: [cli, 'mcp', '--project', owner.project.id],
      env: environment(),
      stderr: 'pipe',
    });
    const stderr = stderrOf(transport.stderr as Readable | null);
    const client = new ClientV2({ name: 'stdio-v2', version: '1.0.0' });
    await client.connect(transport);
    const agent = wrap('v2', client);
    try {
      await exercise(agent, stderr);
    } finally {
      await agent.close();
    }
  });
});
