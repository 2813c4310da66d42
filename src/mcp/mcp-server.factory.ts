import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import { toApiError } from '../common/http/error-response';
import { API_VERSION } from '../openapi/openapi-document';
import { assertPlanAllows } from '../projects/requires-feature';
import { inputSchemaOf, validateArgs } from './tool-input';
import {
  errorResult,
  outputSchemaOf,
  previewResult,
  structuredAnswer,
  successResult,
  type ToolCaller,
  type ToolDefinition,
  type ToolGroup,
} from './tool-kit';
import { advertisedSchema, type JsonSchema } from './tool-schemas';
import { changelogTools } from './tools/changelog.tools';
import type { ServiceResolver } from './tools/service-resolver';
import { contactTools } from './tools/contacts.tools';
import { feedbackTools } from './tools/feedback.tools';
import { notificationTools } from './tools/notifications.tools';
import { setupTools } from './tools/setup.tools';
import { waitlistTools } from './tools/waitlist.tools';
import { webhookTools } from './tools/webhooks.tools';

/** Which tools a connection offers (`?read_only=true`, `?tools=changelog,webhooks`). */
export interface ToolScope {
  readOnly: boolean;
  /** null: every group. `setup_check` is offered whatever this says. */
  groups: ReadonlySet<ToolGroup> | null;
}

export const FULL_SCOPE: ToolScope = { readOnly: false, groups: null };

/** Told of each tool call before it runs (the access log's `mcp_tool`). */
type ToolCallListener = (tool: string) => void;

interface PreparedTool {
  tool: ToolDefinition;
  input: JsonSchema;
  output: JsonSchema;
}

const INSTRUCTIONS = [
  'Launch Service: the changelog, waitlist, feedback, in-app notifications, contacts and webhooks of ONE project (the key decides which).',
  'Call setup_check first to learn the plan and what it enables.',
  'Tools that publish, archive, send, invite or delete change nothing unless called with confirm: true; without it they answer {requires_confirmation: true, preview}. Show the preview to the user before confirming.',
  'Failures are tool results with isError and structuredContent.error = {code, message, param, remediation}.',
].join('\n');

/**
 * Builds one McpServer per HTTP request (stateless: nothing survives the request, so any API
 * process answers any call) or per stdio connection, for one project and one scope. The tool
 * definitions and their schemas are built once at start; each server only registers the ones
 * the scope offers, with handlers bound to the caller's project.
 */
@Injectable()
export class McpServerFactory implements OnModuleInit {
  private tools: PreparedTool[] = [];

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    const services: ServiceResolver = { get: (type) => this.moduleRef.get(type, { strict: false }) };
    const definitions = [
      ...setupTools(services),
      ...changelogTools(services),
      ...waitlistTools(services),
      ...feedbackTools(services),
      ...notificationTools(services),
      ...contactTools(services),
      ...webhookTools(services),
    ];
    this.tools = definitions.map((tool) => ({ tool, input: inputSchemaOf(tool), output: outputSchemaOf(tool) }));
  }

  /** Every tool with its advertised schemas (tests and the table of docs/mcp.md read them). */
  get definitions(): readonly PreparedTool[] {
    return this.tools;
  }

  create(caller: ToolCaller, scope: ToolScope, onCall?: ToolCallListener): McpServer {
    const server = new McpServer({ name: 'launch-service', version: API_VERSION }, { instructions: INSTRUCTIONS });
    for (const prepared of this.tools) {
      if (!offered(prepared.tool, scope)) continue;
      const { tool } = prepared;
      server.registerTool(
        tool.name,
        {
          title: tool.title,
          description: tool.description,
          inputSchema: advertisedSchema(prepared.input),
          outputSchema: advertisedSchema(prepared.output),
          annotations: { title: tool.title, ...tool.annotations },
        },
        (args: Record<string, unknown>) => {
          onCall?.(tool.name);
          return this.call(tool, caller, args);
        },
      );
    }
    return server;
  }

  private async call(tool: ToolDefinition, caller: ToolCaller, args: unknown): Promise<CallToolResult> {
    try {
      const { args: valid, confirmed } = await validateArgs(tool, args);
      if (tool.requires) assertPlanAllows(caller.project, tool.requires);
      if (tool.preview && !confirmed) return previewResult(await tool.preview(caller, valid));
      return successResult(structuredAnswer(await tool.run(caller, valid)));
    } catch (error) {
      // As REST answers: an outage is SERVICE_UNAVAILABLE with its retry delay, a sealed value the
      // key cannot open SEALED_VALUE_UNREADABLE, anything else INTERNAL_ERROR (logged there, once).
      return errorResult(toApiError(error, { mcp_tool: tool.name, project_id: caller.project.id }));
    }
  }
}

function offered(tool: ToolDefinition, scope: ToolScope): boolean {
  if (tool.group === 'setup') return true;
  if (scope.readOnly && !tool.annotations.readOnlyHint) return false;
  return scope.groups === null || scope.groups.has(tool.group);
}
