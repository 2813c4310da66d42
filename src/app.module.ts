import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import { AnalyticsModule } from './analytics/analytics.module';
import { AuthGuard } from './auth/auth.guard';
import { AuthModule } from './auth/auth.module';
import { Clock } from './common/clock/clock';
import { EnvelopeInterceptor } from './common/http/envelope.interceptor';
import { ApiExceptionFilter } from './common/http/exception.filter';
import { requestIdOf } from './common/http/request-context';
import { createValidationPipe } from './common/validation/validation-pipe';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ContactsModule } from './contacts/contacts.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { EventsModule } from './events/events.module';
import { FeedbackModule } from './feedback/feedback.module';
import { HealthModule } from './health/health.module';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { DatabaseModule } from './infra/database/database.module';
import { MailModule } from './infra/mail/mail.module';
import { QueueModule } from './infra/queue/queue.module';
import { BrowserRateLimitGuard } from './infra/rate-limit/browser-rate-limit.guard';
import { RateLimitModule } from './infra/rate-limit/rate-limit.module';
import { ProjectsModule } from './projects/projects.module';
import { PlanGuard } from './projects/requires-feature';
import { WaitlistModule } from './waitlist/waitlist.module';

export interface AppModuleOptions {
  clock?: Clock;
  /** Extra modules, such as the test-only probe module of the e2e suites. */
  imports?: Type<unknown>[];
}

/** Feature modules. Each later capability adds its module here. */
const FEATURE_MODULES = [HealthModule, ProjectsModule, AuthModule, DashboardModule, ContactsModule, AnalyticsModule, FeedbackModule, WaitlistModule];

function loggerModule(config: AppConfig): DynamicModule {
  return LoggerModule.forRoot({
    pinoHttp: [
      {
        level: config.logLevel,
        genReqId: (req) => requestIdOf(req as never),
        customProps: (req) => ({ request_id: requestIdOf(req as never) }),
        redact: ['req.headers.authorization', 'req.headers["x-service-user-hash"]', 'req.headers.cookie'],
        serializers: {
          req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url.split('?')[0] }),
          res: (res: { statusCode: number }) => ({ status: res.statusCode }),
        },
        autoLogging: { ignore: (req) => req.url === '/v1/_health' },
      },
      pino.destination(config.logToStderr ? 2 : 1),
    ],
  });
}

/**
 * The whole application. Cross-cutting behaviour is registered once, here, in this order:
 * guards auth → browser rate limit → plan gate; interceptors idempotency (outer) → envelope.
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, options.clock),
        loggerModule(config),
        DatabaseModule,
        QueueModule,
        MailModule,
        RateLimitModule,
        EventsModule,
        IdempotencyModule,
        ...FEATURE_MODULES,
        ...(options.imports ?? []),
      ],
      providers: [
        { provide: APP_GUARD, useExisting: AuthGuard },
        { provide: APP_GUARD, useExisting: BrowserRateLimitGuard },
        { provide: APP_GUARD, useExisting: PlanGuard },
        { provide: APP_INTERCEPTOR, useExisting: IdempotencyInterceptor },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
