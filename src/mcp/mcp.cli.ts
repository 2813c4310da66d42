import { Logger } from '@nestjs/common';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { type Command, requireString } from '../common/cli/command';
import { ApiError } from '../common/errors/api-error';
import { ProjectsService } from '../projects/projects.service';
import { FULL_SCOPE, McpServerFactory } from './mcp-server.factory';

/**
 * `mcp --project <id|slug>`: the same tools over stdio for one project, for hosts that start a
 * local process (Claude Desktop, IDEs). stdout carries only protocol messages; log lines go to
 * stderr (the CLI's logger). The CLI opens no HTTP server, so nothing listens even with PORT set.
 * The operator who can run the CLI holds the database, so no key is asked for; idempotency keys
 * are scoped to this project's stdio sessions.
 */
export const MCP_COMMANDS: Record<string, Command> = {
  mcp: {
    usage: 'mcp --project <prj_id|slug>   (MCP server on stdin/stdout until stdin closes)',
    summary: [
      'Serves the MCP tools of one project over stdio: stdout carries only protocol messages, logs go to stderr.',
      'Example host configuration: {"command": "npm", "args": ["run", "-s", "cli", "--", "mcp", "--project", "acme"]}',
    ].join('\n'),
    options: { project: { type: 'string' } },
    // Webhook tools seal and open endpoint URLs and secrets.
    opensSealedValues: true,
    ownsStdout: true,
    async run(context, values) {
      const reference = requireString(values, 'project');
      const project = await context.get(ProjectsService).findByReference(reference);
      if (!project) throw new ApiError('NOT_FOUND', `No project with id or slug "${reference}".`, { param: 'project' });
      const factory = context.get(McpServerFactory);
      const logger = new Logger('Mcp');
      const caller = { project, idempotencyScope: `stdio:${project.id}` };
      const ended = new Promise<void>((resolve) => {
        process.stdin.once('end', resolve);
        process.stdin.once('close', resolve);
      });
      const handle = serveStdio(() =>
        factory.create(caller, FULL_SCOPE, (tool) => logger.log({ via: 'mcp', mcp_tool: tool, project_id: project.id }, 'tool call')),
      );
      logger.log(`serving the MCP tools of ${project.slug} on stdio`);
      await ended;
      await handle.close();
      return {};
    },
  },
};
