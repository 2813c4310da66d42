import { Module } from '@nestjs/common';
import { ChangelogModule } from '../changelog/changelog.module';
import { ContactsModule } from '../contacts/contacts.module';
import { FeedbackModule } from '../feedback/feedback.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { ProjectsModule } from '../projects/projects.module';
import { WaitlistModule } from '../waitlist/waitlist.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { McpIdempotency } from './mcp-idempotency';
import { McpServerFactory } from './mcp-server.factory';
import { McpController } from './mcp.controller';

/**
 * The MCP server: the owner operations as tools for AI agents, at `/mcp` (Streamable HTTP) and
 * over stdio (`npm run cli -- mcp --project <id|slug>`). Tools call the services the REST
 * controllers call; see mcp-server.factory.ts and tool-kit.ts for the rules every tool shares.
 */
@Module({
  imports: [
    ProjectsModule,
    IdempotencyModule,
    ChangelogModule,
    WaitlistModule,
    FeedbackModule,
    NotificationsModule,
    ContactsModule,
    WebhooksModule,
  ],
  controllers: [McpController],
  providers: [McpServerFactory, McpIdempotency],
  exports: [McpServerFactory],
})
export class McpModule {}
