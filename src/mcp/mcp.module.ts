import { Module } from '@nestjs/common';
import { ChangelogModule } from '../changelog/changelog.module';
import { ContactsModule } from '../contacts/contacts.module';
import { FeedbackModule } from '../feedback/feedback.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { ProjectsModule } from '../projects/projects.module';
import { WaitlistModule } from '../waitlist/waitlist.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { McpIdempotency } from './mcp-idempotency.service';
import { McpServerFactory } from './mcp-server.factory';
import { McpController } from './mcp.controller';

/**
 * The MCP server: the owner operations as tools for AI agents, at `/mcp` (Streamable HTTP) and
 * over stdio (`npm run cli -- mcp --project <id|slug>`). Tools call the services the REST
 * controllers call; see mcp-server.factory.ts and tool-kit.ts for the rules every tool shares.
 *
 * Choices the spec and the issue leave open (ours):
 * - `update_changelog_entry` takes the PATCH fields except `status` and `scheduled_at`: publishing
 *   and scheduling only go through `publish_changelog_entry`, which previews first.
 * - The publish preview counts what the first publication would reach now: people whose bell has
 *   asked (bell_users), confirmed subscribers following the entry's labels or none (when the plan
 *   emails them and the entry is public with notify_subscribers), and enabled webhook endpoints
 *   subscribed to `changelog.entry.published` by format (chat only with notify_chat). An entry
 *   published before reaches nobody again.
 * - Limits inside a use case (invite waves a minute) answer as tool results with RATE_LIMITED;
 *   the per-request limits of the REST kernel (unknown keys per address) answer HTTP 429 at the
 *   endpoint with Retry-After. REST has no general per-key request budget, so neither has /mcp.
 * - Over stdio there is no key: whoever can run the CLI holds the database. Idempotency keys are
 *   scoped to `stdio:<project id>` there, and to the API key over HTTP (as REST scopes them).
 * - Each HTTP request builds its own server (stateless), so ?read_only and ?tools apply per request;
 *   a tool outside the scope is unknown to that request's server.
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
