import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '../support/test-app';

/** What the suites need of either client. */
export interface AgentClient {
  readonly name: string;
  listTools(): Promise<ListedTool[]>;
  call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
  close(): Promise<void>;
}

export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

export interface ToolAnswer {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
}

/** Makes the test app listen on an ephemeral loopback port; answers its base URL. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

const bearer = (key: string) => ({ headers: { Authorization: `Bearer ${key}` } });

/** The v2 client; `modern` pins 2026-07-28, otherwise it speaks 2025-11-25. */
export async function connectV2(url: string, key: string, options: { modern?: boolean } = {}): Promise<AgentClient> {
  const client = new ClientV2(
    { name: 'test-v2', version: '1.0.0' },
    options.modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new HttpTransportV2(new URL(url), { requestInit: bearer(key) }));
  return wrap(options.modern ? 'v2 (2026-07-28)' : 'v2 (2025-11-25)', client);
}

/** The v1 SDK's client (2025-11-25, most deployed hosts). */
export async function connectV1(url: string, key: string): Promise<AgentClient> {
  const client = new ClientV1({ name: 'test-v1', version: '1.0.0' });
  await client.connect(new HttpTransportV1(new URL(url), { requestInit: bearer(key) }));
  return wrap('v1', client);
}

interface AnyClient {
  listTools(params?: { cursor?: string }): Promise<{ tools: unknown[]; nextCursor?: string }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

export function wrap(name: string, client: AnyClient): AgentClient {
  return {
    name,
    async listTools() {
      const tools: ListedTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined);
        tools.push(...(page.tools as ListedTool[]));
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    },
    async call(tool, args = {}) {
      return (await client.callTool({ name: tool, arguments: args })) as ToolAnswer;
    },
    close: () => client.close(),
  };
}

/** The structured answer of a call that must succeed. */
export async function ok(client: AgentClient, tool: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const answer = await client.call(tool, args);
  if (answer.isError) throw new Error(`${tool} failed: ${answer.content[0]?.text}`);
  return answer.structuredContent as Record<string, unknown>;
}

/** The error object of a call that must fail as a tool result, checked against its text line. */
export async function failure(
  client: AgentClient,
  tool: string,
  args: Record<string, unknown> = {},
): Promise<{ code: string; message: string; param: string | null; remediation: string }> {
  const answer = await client.call(tool, args);
  if (!answer.isError) throw new Error(`${tool} did not fail: ${JSON.stringify(answer.structuredContent)}`);
  const error = (answer.structuredContent as { error: { code: string; message: string; param: string | null; remediation: string } }).error;
  if (answer.content[0]?.text !== `${error.code}: ${error.message} ${error.remediation}`)
    throw new Error(`text line: ${answer.content[0]?.text}`);
  return error;
}
