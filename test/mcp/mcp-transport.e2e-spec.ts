import { ApiKeysService } from '../../src/auth/api-keys.service';
import { TestApp, type SeededProject } from '../support/test-app';
import { connectV1, connectV2, failure, listen } from './mcp-clients';

const INIT = (protocolVersion: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('/mcp over Streamable HTTP', () => {
  let t: TestApp;
  let url: string;
  let owner: SeededProject;

  beforeAll(async () => {
    t = await TestApp.start({ env: { API_KEY_FAILURE_LIMIT: '3' } });
    url = `${await listen(t)}/mcp`;
    owner = await t.seedProject({ plan: 'indie', slug: 'mcp-owner' });
  });
  afterAll(() => t.close());

  const post = (body: unknown, headers: Record<string, string> = {}, path = '/mcp') =>
    fetch(url.replace('/mcp', path), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });

  it.each([
    ['v1', () => connectV1(url, owner.secretKey)],
    ['v2 legacy', () => connectV2(url, owner.secretKey)],
    ['v2 modern', () => connectV2(url, owner.secretKey, { modern: true })],
  ])('the %s client calls setup_check for the key’s project', async (_name, connect) => {
    const client = await connect();
    try {
      const answer = await client.call('setup_check');
      expect(answer.isError).toBeFalsy();
      expect(answer.structuredContent).toMatchObject({ project_id: owner.project.id, project_slug: 'mcp-owner', plan: 'indie' });
      expect(JSON.parse(answer.content[0].text as string)).toEqual(answer.structuredContent);
      expect(await failure(client, 'setup_check', { verbose: true })).toMatchObject({ code: 'VALIDATION_ERROR', param: 'verbose' });
    } finally {
      await client.close();
    }
  });

  it.each(['2025-06-18', '2025-11-25'])('answers an initialize of protocol version %s with that version', async (version) => {
    const res = await post(INIT(version), { Authorization: `Bearer ${owner.secretKey}` });
    expect(res.status).toBe(200);
    const text = await res.text();
    const json = JSON.parse(
      text.startsWith('{')
        ? text
        : text
            .split('\n')
            .find((line) => line.startsWith('data: '))!
            .slice(6),
    );
    expect(json.result).toMatchObject({ protocolVersion: version, serverInfo: { name: 'launch-service' } });
  });

  it('answers a 2025-06-18 tools/call on its own (no session to resume)', async () => {
    const res = await post(
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'setup_check', arguments: {} } },
      { Authorization: `Bearer ${owner.secretKey}`, 'MCP-Protocol-Version': '2025-06-18' },
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    const json = JSON.parse(
      text.startsWith('{')
        ? text
        : text
            .split('\n')
            .find((line) => line.startsWith('data: '))!
            .slice(6),
    );
    expect(json).toMatchObject({ id: 7, result: { structuredContent: { project_id: owner.project.id } } });
  });

  it('keeps nothing between requests: GET (a 2025 session stream) is refused with 405', async () => {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${owner.secretKey}`, Accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
  });

  describe('auth', () => {
    it('answers a call without a key 401 with WWW-Authenticate: Bearer and the error envelope', async () => {
      const res = await post(INIT('2025-11-25'));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      expect(await res.json()).toMatchObject({ data: null, error: { code: 'MISSING_AUTH', param: 'Authorization' } });
    });

    it('answers an unknown key 401 INVALID_API_KEY with a Bearer challenge', async () => {
      const res = await post(INIT('2025-11-25'), { Authorization: 'Bearer svc_live_00000000000000000000000000000000' });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(await res.json()).toMatchObject({ error: { code: 'INVALID_API_KEY' } });
    });

    it('answers a revoked key 401 REVOKED_API_KEY', async () => {
      const other = await t.seedProject();
      await t.get(ApiKeysService).revokeKey(other.secretKey);
      const res = await post(INIT('2025-11-25'), { Authorization: `Bearer ${other.secretKey}` });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      expect(await res.json()).toMatchObject({ error: { code: 'REVOKED_API_KEY' } });
    });

    it('answers a publishable key 403 KEY_INSUFFICIENT_PERMISSIONS', async () => {
      const res = await post(INIT('2025-11-25'), { Authorization: `Bearer ${owner.publishableKey}` });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ data: null, error: { code: 'KEY_INSUFFICIENT_PERMISSIONS' } });
    });

    it('answers 429 RATE_LIMITED with Retry-After past the REST key-guess limit', async () => {
      const guess = (n: number) => post(INIT('2025-11-25'), { Authorization: `Bearer svc_live_${String(n).padStart(32, '1')}` });
      // API_KEY_FAILURE_LIMIT is 3 here, and the tests above already spent some of it.
      let res = await guess(0);
      for (let n = 1; n < 5 && res.status === 401; n += 1) res = await guess(n);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await res.json()).toMatchObject({ data: null, error: { code: 'RATE_LIMITED' } });
    });
  });
});
