import { INestApplicationContext, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import type { DestinationStream } from 'pino';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppModule, AppModuleOptions } from './app.module';
import { answerClientErrors } from './common/http/client-error';
import { configureHttp } from './common/http/configure-http';
import { EnvelopeExpressAdapter } from './common/http/envelope';
import { PinoNestLogger, createRootLogger } from './common/logging/logger';
import { AppConfig, ConfigError, loadConfig, withDatabaseUrl } from './config/app-config';
import { EmbeddedPostgres, startEmbeddedPostgres } from './infra/database/embedded-postgres';
import { buildOpenApiDocument, serveOpenApi } from './openapi/openapi-document';

export interface Prepared {
  config: AppConfig;
  embedded: EmbeddedPostgres | null;
}

/** Without ENCRYPTION_KEY a key is generated once into DATA_DIR, so restarts can still decrypt. */
function ensureEncryptionKey(config: AppConfig): AppConfig {
  if (config.encryptionKey) return config;
  const path = join(config.dataDir, 'encryption.key');
  if (!existsSync(path)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(path, randomBytes(32).toString('base64'), { mode: 0o600 });
    new Logger('Config').warn(`ENCRYPTION_KEY is not set; generated one in ${path}. Set ENCRYPTION_KEY in production.`);
  }
  return Object.freeze({ ...config, encryptionKey: Buffer.from(readFileSync(path, 'utf8').trim(), 'base64') });
}

/** Reads the environment (failing fast on bad values) and starts the embedded database if needed. */
export async function prepare(overrides: Partial<Record<string, string>> = {}): Promise<Prepared> {
  let config: AppConfig;
  try {
    config = loadConfig({ ...process.env, ...overrides });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  if (config.insecureWebhookWarning) new Logger('Config').warn(config.insecureWebhookWarning);
  const embedded = config.embeddedDatabase ? await startEmbeddedPostgres({ dataDir: config.dataDir }) : null;
  if (embedded) config = withDatabaseUrl(config, embedded.url);
  return { config: ensureEncryptionKey(config), embedded };
}

export interface HttpAppOptions extends AppModuleOptions {
  /** Where log lines go instead of stdout (tests read them). */
  logDestination?: DestinationStream;
}

/** The HTTP application, fully configured but not listening. */
export async function createHttpApp(config: AppConfig, options: HttpAppOptions = {}): Promise<NestExpressApplication> {
  const logger = createRootLogger(config, options.logDestination);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, options), new EnvelopeExpressAdapter(), {
    bufferLogs: true,
    bodyParser: false,
  });
  app.useLogger(new PinoNestLogger(logger));
  answerClientErrors(app.getHttpServer());
  configureHttp(app, config, logger);
  // Before init: Nest's not-found handler comes after everything registered by then.
  serveOpenApi(app, buildOpenApiDocument(app));
  await app.init();
  return app;
}

/** A context without HTTP: the worker process and the operator CLI. */
export async function createContext(config: AppConfig, options: AppModuleOptions = {}): Promise<INestApplicationContext> {
  const context = await NestFactory.createApplicationContext(AppModule.forRoot(config, options), { bufferLogs: true });
  context.useLogger(new PinoNestLogger(createRootLogger(config)));
  return context;
}
