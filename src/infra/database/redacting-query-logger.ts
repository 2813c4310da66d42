import { Logger as NestLogger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';
import { redactError } from '../../common/logging/redact-error';

/**
 * TypeORM's logger, written so that no query parameter (emails, tokens) ever reaches a log line,
 * whatever `logging` is set to. A failed statement is logged at debug with its SQL text and
 * SQLSTATE: most failures are expected (a unique index deciding a duplicate) and the ones that are
 * not reach the exception filter, which logs them once with the request id.
 */
export class RedactingQueryLogger implements TypeOrmLogger {
  private readonly logger = new NestLogger('Database');

  // TypeORM calls every method whatever `logging` says; statements that succeed are not logged.
  logQuery(): void {}

  logQueryError(error: string | Error, query: string, parameters?: unknown[]): void {
    const err = typeof error === 'string' ? redactError(new Error(error)) : redactError(error);
    this.logger.debug({ msg: 'query failed', err, query, parameter_count: parameters?.length ?? 0 });
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ msg: 'slow query', duration_ms: time, query });
  }

  logSchemaBuild(): void {}

  logMigration(message: string): void {
    this.logger.debug(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.debug(String(message));
  }
}
