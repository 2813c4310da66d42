import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AnalyticsModule } from './analytics/analytics.module';
import { AuthModule } from './auth/auth.module';
import { BillingModule } from './billing/billing.module';
import { BrowserScriptsModule } from './browser-scripts/browser-scripts.module';
import { ChangelogModule } from './changelog/changelog.module';
import { RoutePolicyGuard } from './auth/route-policy.guard';
import { Clock } from './common/clock/clock';
import { BodyMediaTypeGuard } from './common/http/body-media-type.guard';
import { ApiExceptionFilter } from './common/http/exception.filter';
import { createValidationPipe } from './common/validation/validation.pipe';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ContactsModule } from './contacts/contacts.module';
import { CustomDomainsModule } from './custom-domains/custom-domains.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { DevModule } from './dev/dev.module';
import { EmailTemplatesModule } from './email-templates/email-templates.module';
import { ENTITIES } from './entities';
import { EventsModule } from './events/events.module';
import { FeedbackModule } from './feedback/feedback.module';
import { HealthModule } from './health/health.module';
import { McpModule } from './mcp/mcp.module';
import { NotificationsModule } from './notifications/notifications.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { DatabaseModule } from './infra/database/database.module';
import { ErasureRegistryModule } from './infra/erasure/erasure-registry.module';
import { EncryptionModule } from './infra/encryption/encryption.module';
import { MailModule } from './infra/mail/mail.module';
import { QueueModule } from './infra/queue/queue.module';
import { RateLimitModule } from './infra/rate-limit/rate-limit.module';
import { ProjectsModule } from './projects/projects.module';
import { RevenueModule } from './revenue/revenue.module';
import { WaitlistModule } from './waitlist/waitlist.module';
import { WebhooksModule } from './webhooks/webhooks.module';

export interface AppModuleOptions {
  clock?: Clock;
  /** Extra modules, such as the test-only probe module of the e2e suites. */
  imports?: Type<unknown>[];
  /**
   * Check ENCRYPTION_KEY against the database's fingerprint at start (default: yes). The CLI turns
   * it off for commands that open no sealed value, and for `encryption:reseal`, which checks both keys.
   */
  checkEncryptionKey?: boolean;
}

/** Feature modules. Each later capability adds its module here. */
const FEATURE_MODULES = [
  HealthModule,
  ProjectsModule,
  AuthModule,
  DashboardModule,
  ContactsModule,
  AnalyticsModule,
  FeedbackModule,
  WaitlistModule,
  ChangelogModule,
  NotificationsModule,
  WebhooksModule,
  BillingModule,
  RevenueModule,
  CustomDomainsModule,
  EmailTemplatesModule,
  BrowserScriptsModule,
  McpModule,
];

/**
 * The whole application. Cross-cutting behaviour is registered once: one guard enforces each
 * route's policy in one pass (auth, browser limit, plan gate, end user, Idempotency-Key claim);
 * one pipe validates; one filter writes
 * every failure; the HTTP adapter writes every success envelope (common/http/envelope.ts); no
 * interceptors at all. Logging is set up in bootstrap.ts.
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, options.clock),
        DatabaseModule.forRoot(ENTITIES),
        ErasureRegistryModule,
        EncryptionModule.forRoot({ atStart: options.checkEncryptionKey !== false }),
        QueueModule,
        MailModule,
        RateLimitModule,
        EventsModule,
        IdempotencyModule,
        ...FEATURE_MODULES,
        DevModule.forRoot(config),
        ...(options.imports ?? []),
      ],
      providers: [
        { provide: APP_GUARD, useExisting: RoutePolicyGuard },
        // After authentication: a caller without a valid key learns that first.
        { provide: APP_GUARD, useClass: BodyMediaTypeGuard },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
