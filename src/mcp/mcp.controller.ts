import { All, ArgumentsHost, Catch, Controller, ExceptionFilter, OnModuleDestroy, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import type { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current.decorators';
import { ApiError } from '../common/errors/api-error';
import { writeError } from '../common/http/exception.filter';
import { addRequestLogFields } from '../common/http/request-context';
import { Auth } from '../common/http/route-policy';
import { McpScopeQueryDto } from './dto/mcp-scope-query.dto';
import { calledTool, toWebRequest, writeWebResponse } from './mcp-http';
import { McpServerFactory, type ToolScope } from './mcp-server.factory';
import type { ToolCaller, ToolGroup } from './tool-kit';

/** What the controller hands the SDK for one request; the factory builds that request's server from it. */
interface RequestBinding {
  caller: ToolCaller;
  scope: ToolScope;
}

/**
 * RFC 6750: a 401 from a bearer-protected resource says how to authenticate. The envelope is the
 * service's own (the global filter's writer), so MCP hosts and REST clients read the same error.
 */
@Catch()
class McpAuthChallengeFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    if (exception instanceof ApiError && exception.status === 401) {
      const invalid = exception.code !== 'MISSING_AUTH';
      res.setHeader('WWW-Authenticate', invalid ? 'Bearer realm="launch-service", error="invalid_token"' : 'Bearer realm="launch-service"');
    }
    writeError(exception, http.getRequest<Request>(), res);
  }
}

function scopeOf(query: McpScopeQueryDto): ToolScope {
  const groups = query.tools ? new Set(query.tools.split(',') as ToolGroup[]) : null;
  return { readOnly: query.read_only === 'true', groups };
}

/**
 * `/mcp`: the MCP server over stateless Streamable HTTP. It goes through the same kernel as every
 * REST route (request id, access log, the route-policy guard: secret key, revoked keys, the
 * key-guess limit, Cache-Control), then hands the request to the SDK's handler, which answers
 * 2026-07-28 clients on its modern path and 2025-06-18 / 2025-11-25 clients on its stateless
 * legacy path. GET and DELETE (2025 session operations) are answered 405 by the SDK: nothing is
 * kept between requests.
 */
@ApiExcludeController()
@Controller('mcp')
@UseFilters(McpAuthChallengeFilter)
export class McpController implements OnModuleDestroy {
  private readonly handler: McpHttpHandler;

  constructor(factory: McpServerFactory) {
    this.handler = createMcpHandler((context) => {
      const binding = context.authInfo?.extra?.binding as RequestBinding;
      const req = context.authInfo?.extra?.request as Request;
      return factory.create(binding.caller, binding.scope, (tool) => addRequestLogFields(req, { mcp_tool: tool }));
    });
  }

  @All()
  @Auth('secret')
  async serve(@Req() req: Request, @Res() res: Response, @CurrentCaller() caller: Caller, @Query() query: McpScopeQueryDto): Promise<void> {
    addRequestLogFields(req, { via: 'mcp' });
    const tool = calledTool(req.body);
    if (tool) addRequestLogFields(req, { mcp_tool: tool });
    if (caller.kind !== 'secret_key') throw new ApiError('KEY_INSUFFICIENT_PERMISSIONS', 'The MCP server needs a secret key.');
    const binding: RequestBinding = { caller: { project: caller.project, idempotencyScope: caller.keyId }, scope: scopeOf(query) };
    const answer = await this.handler.fetch(toWebRequest(req), {
      parsedBody: req.body,
      authInfo: { token: '', clientId: caller.keyId, scopes: [], extra: { binding, request: req } },
    });
    await writeWebResponse(res, answer);
  }

  async onModuleDestroy(): Promise<void> {
    await this.handler.close();
  }
}
