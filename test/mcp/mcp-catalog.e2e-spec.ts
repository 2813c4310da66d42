import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEALED_REPLAY_NOTE } from '../../src/idempotency/idempotent.decorator';
import { McpServerFactory } from '../../src/mcp/mcp-server.factory';
import type { ToolDefinition } from '../../src/mcp/tool-kit';
import { requiredFeatureOf } from '../../src/projects/requires-feature';
import { WaitlistController } from '../../src/waitlist/waitlist.controller';
import { WebhookEndpointEntity } from '../../src/webhooks/entities/webhook-endpoint.entity';
import { insertEndpoint } from '../webhooks/delivery-support';
import { TestApp, type SeededProject } from '../support/test-app';
import { type AgentClient, type ListedTool, connectV1, connectV2, listen } from './mcp-clients';

type Schema = Record<string, unknown>;

const ALL_TOOLS = [
  'setup_check',
  'list_changelog_entries',
  'get_changelog_entry',
  'create_changelog_entry',
  'update_changelog_entry',
  'publish_changelog_entry',
  'archive_changelog_entry',
  'draft_changelog_from_commits',
  'get_changelog_stats',
  'list_changelog_labels',
  'list_waitlist_signups',
  'get_waitlist_stats',
  'invite_waitlist_signups',
  'list_feedback',
  'get_feedback',
  'send_notification',
  'preview_notification_audience',
  'list_notifications',
  'list_contacts',
  'create_webhook',
  'update_webhook',
  'test_webhook',
  'delete_webhook',
  'list_webhooks',
  'list_webhook_deliveries',
];
const CONFIRMED = ['publish_changelog_entry', 'archive_changelog_entry', 'send_notification', 'invite_waitlist_signups', 'delete_webhook'];
const TOOL_ONLY_ARGUMENTS = ['id', 'confirm', 'idempotency_key'];
const CONSTRAINTS = ['enum', 'minLength', 'maxLength', 'minimum', 'maximum', 'pattern', 'format', 'minItems', 'maxItems'];

const openapi = JSON.parse(readFileSync(join(__dirname, '../../openapi/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { parameters?: Schema[]; requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
};

const resolve = (schema: Schema): Schema =>
  typeof schema.$ref === 'string' ? resolve(openapi.components.schemas[schema.$ref.split('/').pop() as string]) : schema;

/** A property's type and limits, the same whichever document says it (nullable: a `null` type). */
function constraintsOf(property: Schema): Schema {
  const schema = resolve(property);
  const types = ([] as unknown[]).concat(schema.type ?? (schema.allOf || schema.anyOf ? 'object' : []));
  const out: Schema = { type: types.filter((type) => type !== 'null')[0] ?? null };
  for (const key of CONSTRAINTS) {
    const value = schema[key];
    if (value !== undefined) out[key] = Array.isArray(value) ? value.filter((item) => item !== null) : value;
  }
  if (schema.items) out.items = constraintsOf(schema.items as Schema);
  return out;
}

/** The REST request fields of a tool's route: the body schema's properties, or the query parameters. */
function restFields(tool: ToolDefinition): { properties: Record<string, Schema>; required: string[]; pathPattern?: string } {
  const operation = openapi.paths[tool.rest!.path][tool.rest!.method];
  const path = (operation.parameters ?? []).find((parameter) => parameter.in === 'path');
  const pathPattern = path ? ((path.schema as Schema).pattern as string) : undefined;
  if (tool.input.from === 'query') {
    const query = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query');
    return {
      properties: Object.fromEntries(query.map((parameter) => [parameter.name as string, parameter.schema as Schema])),
      required: query.filter((parameter) => parameter.required).map((parameter) => parameter.name as string),
      pathPattern,
    };
  }
  const body = operation.requestBody ? resolve(operation.requestBody.content['application/json'].schema) : { properties: {} };
  return { properties: (body.properties ?? {}) as Record<string, Schema>, required: (body.required ?? []) as string[], pathPattern };
}

describe('MCP tool catalog', () => {
  let t: TestApp;
  let base: string;
  let owner: SeededProject;
  let client: AgentClient;
  let listed: ListedTool[];

  beforeAll(async () => {
    t = await TestApp.start();
    base = await listen(t);
    owner = await t.seedProject({ plan: 'builder' });
    client = await connectV1(`${base}/mcp`, owner.secretKey);
    listed = await client.listTools();
  });
  afterAll(async () => {
    await client.close();
    await t.close();
  });

  const tool = (name: string) => listed.find((item) => item.name === name) as ListedTool;

  it('offers exactly the 25 tools of the issue', () => {
    expect(listed.map((item) => item.name).sort()).toEqual([...ALL_TOOLS].sort());
  });

  it('gives every tool a title, a description for a model, four honest hints, closed input and an output schema', () => {
    for (const item of listed) {
      expect(item.title).toEqual(expect.any(String));
      expect(item.description?.length).toBeGreaterThan(60);
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
        expect({ tool: item.name, hint, value: typeof item.annotations?.[hint] }).toEqual({ tool: item.name, hint, value: 'boolean' });
      }
      if (item.annotations?.readOnlyHint) expect(item.annotations.destructiveHint).toBe(false);
      expect(item.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(item.outputSchema).toMatchObject({ type: 'object' });
    }
    expect(
      listed
        .filter((item) => item.annotations?.destructiveHint)
        .map((item) => item.name)
        .sort(),
    ).toEqual(['archive_changelog_entry', 'delete_webhook']);
  });

  it('takes confirm on the five tools that preview first, idempotency_key on creates, and id as the resource argument', () => {
    const withConfirm = listed.filter((item) => 'confirm' in (item.inputSchema.properties as Schema)).map((item) => item.name);
    expect(withConfirm.sort()).toEqual([...CONFIRMED].sort());
    for (const name of [
      'create_changelog_entry',
      'draft_changelog_from_commits',
      'create_webhook',
      'send_notification',
      'invite_waitlist_signups',
    ]) {
      expect(Object.keys(tool(name).inputSchema.properties as Schema)).toContain('idempotency_key');
    }
    for (const name of ['get_changelog_entry', 'get_feedback', 'delete_webhook', 'list_webhook_deliveries']) {
      expect(tool(name).inputSchema.required).toContain('id');
    }
    const create = Object.keys(tool('create_changelog_entry').inputSchema.properties as Schema);
    expect(create).not.toEqual(expect.arrayContaining(['status']));
    expect(create).not.toContain('scheduled_at');
    expect(create).not.toContain('published_at');
    expect(Object.keys(tool('publish_changelog_entry').inputSchema.properties as Schema).sort()).toEqual(['confirm', 'id', 'publish_at']);
  });

  it('derives each input schema from the REST request schema in openapi.json: same fields, types, limits and enums', () => {
    const definitions = t.get(McpServerFactory).definitions;
    for (const { tool: definition, input } of definitions) {
      expect(tool(definition.name).inputSchema).toEqual(input);
      if (!definition.rest) continue;
      const rest = restFields(definition);
      const omitted = definition.input.omit ?? [];
      const properties = input.properties as Record<string, Schema>;
      const own = Object.keys(properties).filter((name) => !TOOL_ONLY_ARGUMENTS.includes(name));
      const expected = definition.input.dto ? Object.keys(rest.properties).filter((name) => !omitted.includes(name)) : [];
      expect({ tool: definition.name, fields: own.sort() }).toEqual({ tool: definition.name, fields: expected.sort() });
      for (const name of own) {
        expect({ tool: definition.name, name, schema: constraintsOf(properties[name]) }).toEqual({
          tool: definition.name,
          name,
          schema: constraintsOf(rest.properties[name]),
        });
      }
      const required = ((input.required as string[] | undefined) ?? []).filter((name) => !TOOL_ONLY_ARGUMENTS.includes(name));
      expect({ tool: definition.name, required: required.sort() }).toEqual({
        tool: definition.name,
        required: rest.required.filter((name) => !omitted.includes(name)).sort(),
      });
      if (definition.input.id)
        expect({ tool: definition.name, id: properties.id.pattern }).toEqual({ tool: definition.name, id: rest.pathPattern });
    }
  });

  it('seals the kept answer of a create tool exactly when its REST route seals its replay (the answer shows a secret)', () => {
    const creates = t.get(McpServerFactory).definitions.filter(({ tool: item }) => item.input.idempotent);
    expect(creates.map(({ tool: item }) => item.name)).toContain('create_webhook');
    for (const { tool: definition } of creates) {
      const operation = openapi.paths[definition.rest!.path][definition.rest!.method];
      const header = (operation.parameters ?? []).find((parameter) => parameter.name === 'Idempotency-Key');
      const sealed = ((header?.description as string | undefined) ?? '').includes(SEALED_REPLAY_NOTE);
      expect({ tool: definition.name, sealed: definition.input.secretInAnswer === true }).toEqual({ tool: definition.name, sealed });
    }
  });

  it('gates invites on the REST route’s plan feature', () => {
    const invites = t.get(McpServerFactory).definitions.find(({ tool: item }) => item.name === 'invite_waitlist_signups');
    expect(invites?.tool.requires).toBe(requiredFeatureOf(WaitlistController.prototype.inviteSignups));
  });

  describe('scoping', () => {
    it('offers only read-only tools with ?read_only=true', async () => {
      const scoped = await connectV2(`${base}/mcp?read_only=true`, owner.secretKey, { modern: true });
      try {
        const names = (await scoped.listTools()).map((item) => item.name).sort();
        expect(names).toEqual(
          listed
            .filter((item) => item.annotations?.readOnlyHint)
            .map((item) => item.name)
            .sort(),
        );
        expect(names).not.toContain('delete_webhook');
        const { endpoint } = await insertEndpoint(t, owner.project.id, { url: 'https://hooks.example.com/x' });
        const attempt = await scoped.call('delete_webhook', { id: endpoint.id, confirm: true }).catch((error: Error) => error);
        expect(attempt instanceof Error || attempt.isError === true).toBe(true);
        expect(await t.db.manager.countBy(WebhookEndpointEntity, { id: endpoint.id })).toBe(1);
      } finally {
        await scoped.close();
      }
    });

    it('offers only the named groups (and setup_check) with ?tools=', async () => {
      const scoped = await connectV1(`${base}/mcp?tools=feedback,contacts`, owner.secretKey);
      try {
        expect((await scoped.listTools()).map((item) => item.name).sort()).toEqual([
          'get_feedback',
          'list_contacts',
          'list_feedback',
          'setup_check',
        ]);
      } finally {
        await scoped.close();
      }
    });

    it.each([
      ['tools=changelog,billing', 'tools'],
      ['read_only=yes', 'read_only'],
      ['tools=', 'tools'],
    ])('answers ?%s with HTTP 400 VALIDATION_ERROR', async (query, param) => {
      const res = await fetch(`${base}/mcp?${query}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${owner.secretKey}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ data: null, error: { code: 'VALIDATION_ERROR', param } });
    });
  });
});
