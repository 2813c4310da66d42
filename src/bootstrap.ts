import { INestApplicationContext, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { DestinationStream, Logger as PinoLogger } from 'pino';
import { AppModule, AppModuleOptions } from './app.module';
import { answerClientErrors } from './common/http/client-error';
import { configureHttp } from './common/http/configure-http';
import { EnvelopeExpressAdapter } from './common/fast-paths/envelope-reply';
import { LogSettings, PinoNestLogger, createRootLogger } from './common/logging/logger';
import { AppConfig, ConfigError, LogLevel, loadConfig, logFormatOf, withDatabaseUrl } from './config/app-config';
import { guardCustomDomains } from './custom-domains/custom-domain-gate.service';
import { withEncryptionKey } from './config/encryption-key';
import { StartupFailure, probePostgres, probeRedis } from './infra/backend-probes';
import { EncryptionKeyRefused } from './infra/encryption/encryption-key-check.service';
import { EmbeddedDatabaseInUse, EmbeddedPostgres, embeddedLockHolder, startEmbeddedPostgres } from './infra/database/embedded-postgres';
import { buildOpenApiDocument, serveOpenApi } from './openapi/openapi-document';
import type { ProcessLifecycle } from './shutdown';

interface Prepared {
  config: AppConfig;
  embedded: EmbeddedPostgres | null;
}

interface PrepareOptions {
  /** Variables that win over the environment (the CLI's WORKERS=off, the worker's WORKERS=on). */
  overrides?: Partial<Record<string, string>>;
  /** The operator CLI: logs on stderr, and works through a running server's embedded database. */
  cli?: boolean;
  /** The API server: shares its embedded database with the CLI through the lock file. */
  share?: boolean;
}

// The process's logger once the configuration is read; failures before that use a default one.
let processLogger: PinoLogger | null = null;

function loggerFor(config: LogSettings): PinoLogger {
  processLogger ??= createRootLogger(config);
  return processLogger;
}

/** Writes out the log lines pino still buffers, so that what follows on stdout comes after them. */
export function flushLogs(): Promise<void> {
  const logger = processLogger;
  if (!logger) return Promise.resolve();
  return new Promise((resolve) => logger.flush(() => resolve()));
}

/** For a configuration too broken to read: LOG_LEVEL and LOG_FORMAT as given, when they are valid. */
function fallbackLogSettings(): LogSettings {
  const level = process.env.LOG_LEVEL ?? 'info';
  const valid = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(level);
  return {
    logLevel: (valid ? level : 'info') as LogLevel,
    logToStderr: true,
    logFormat: logFormatOf(process.env, { cli: true, terminal: process.stderr.isTTY === true }),
  };
}

function isAddressInUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE';
}

function portOf(error: unknown): string {
  const port = (error as { port?: unknown }).port;
  return port === undefined ? 'the port' : String(port);
}

// How long the CLI waits for a server that is starting to publish its embedded database's address.
const SHARED_ADDRESS_WAIT_MS = 15_000;

/**
 * For the CLI on the embedded defaults: the address of the embedded database that a running
 * server shares (its lock file records it), or null when no process holds the data folder, so the
 * CLI opens it itself. A holder that shares nothing (a worker, another CLI command) is waited
 * for a while, then named in the error.
 */
async function sharedEmbeddedDatabase(dataDir: string): Promise<string | null> {
  const deadline = Date.now() + SHARED_ADDRESS_WAIT_MS;
  for (;;) {
    const holder = embeddedLockHolder(dataDir);
    if (!holder) return null;
    if (holder.url) {
      new Logger('Cli').log(`process ${holder.pid} holds the embedded database; working through it at ${holder.url}`);
      return holder.url;
    }
    if (Date.now() > deadline) throw new EmbeddedDatabaseInUse(dataDir, holder);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Fails with one line naming the setting when DATABASE_URL or REDIS_URL does not answer (backend-probes.ts). */
async function checkBackends(config: AppConfig): Promise<void> {
  const probes: Promise<void>[] = [];
  if (config.databaseUrl) probes.push(probePostgres(config.databaseUrl, config.deadlines.databaseConnectMs));
  if (config.redisUrl) probes.push(probeRedis(config.redisUrl, Math.max(1_000, config.deadlines.redisCommandMs)));
  const results = await Promise.allSettled(probes);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Reads the environment (failing fast on bad values), routes every log line through pino from
 * here on (Nest's static Logger included), checks that the configured backends answer, and starts
 * the embedded database if needed: or, for the CLI, finds the one a running server shares.
 */
export async function prepare(lifecycle: ProcessLifecycle, options: PrepareOptions = {}): Promise<Prepared> {
  const cli = options.cli === true;
  let config = loadConfig(
    { ...process.env, ...options.overrides },
    { cli, terminal: (cli ? process.stderr : process.stdout).isTTY === true },
  );
  Logger.overrideLogger(new PinoNestLogger(loggerFor(config)));
  for (const warning of config.startWarnings) new Logger('Config').warn(warning);
  const shared = options.cli && config.embeddedDatabase ? await sharedEmbeddedDatabase(config.dataDir) : null;
  if (shared) config = withDatabaseUrl(config, shared);
  await checkBackends(config);
  const embedded =
    config.embeddedDatabase && !shared ? await startEmbeddedPostgres({ dataDir: config.dataDir, share: options.share }) : null;
  lifecycle.holdEmbedded(embedded);
  if (embedded) {
    // Said here, not by the embedded database itself: the test suites start one per file.
    new Logger('EmbeddedPostgres').log(`Embedded PostgreSQL in ${config.dataDir} at ${embedded.url}`);
    config = withDatabaseUrl(config, embedded.url);
  }
  return { config: withEncryptionKey(config), embedded };
}

/**
 * A start-up failure as ONE log line: a setting that does not work is named with its address and
 * the reason, without a stack; anything unexpected keeps its stack in the line's `err` field.
 * Then closes whatever started (the embedded database above all) and exits 1.
 */
export function failStart(lifecycle: ProcessLifecycle, error: unknown): Promise<never> {
  const logger = processLogger ?? createRootLogger(fallbackLogSettings());
  if (error instanceof ConfigError) logger.fatal({ context: 'Config', problems: error.problems }, error.message.replace(/\n\s*/g, ' '));
  else if (error instanceof StartupFailure)
    logger.fatal({ context: 'Startup', setting: error.setting, reason: error.reason }, error.message);
  else if (error instanceof EncryptionKeyRefused) logger.fatal({ context: 'Startup', setting: error.setting }, error.message);
  else if (error instanceof EmbeddedDatabaseInUse) logger.fatal({ context: 'Startup', holder_pid: error.holder.pid }, error.message);
  else if (isAddressInUse(error))
    logger.fatal(
      { context: 'Startup', setting: 'PORT' },
      `PORT: ${portOf(error)} is already in use. Stop the process that listens there, or set PORT.`,
    );
  else logger.fatal({ context: 'Startup', err: error }, `failed to start: ${(error as Error)?.message ?? String(error)}`);
  return lifecycle.stop(1);
}

interface HttpAppOptions extends AppModuleOptions {
  /** Where log lines go instead of stdout (tests read them). */
  logDestination?: DestinationStream;
}

/** The HTTP application, fully configured but not listening. */
export async function createHttpApp(config: AppConfig, options: HttpAppOptions = {}): Promise<NestExpressApplication> {
  const logger = options.logDestination ? createRootLogger(config, options.logDestination) : (processLogger ?? createRootLogger(config));
  // abortOnError off: a failure reaches the caller (failStart logs it once) instead of Nest's own report and exit.
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, options), new EnvelopeExpressAdapter(), {
    // After prepare() every line already goes through pino: buffering would only lose lines on an early exit.
    bufferLogs: processLogger === null,
    bodyParser: false,
    abortOnError: false,
  });
  app.useLogger(new PinoNestLogger(logger));
  answerClientErrors(app.getHttpServer());
  configureHttp(app, config, logger);
  // Before the API reference and the routes: a custom domain's Host reaches its project's pages only.
  guardCustomDomains(app, config);
  // Before init: Nest's not-found handler comes after everything registered by then.
  serveOpenApi(app, buildOpenApiDocument(app));
  try {
    await app.init();
  } catch (error) {
    // A refused start (ENCRYPTION_KEY, the job catalog) closes the pool and queues it opened.
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}

/** A context without HTTP: the worker process and the operator CLI. */
export async function createContext(config: AppConfig, options: AppModuleOptions = {}): Promise<INestApplicationContext> {
  const context = await NestFactory.createApplicationContext(AppModule.forRoot(config, options), {
    bufferLogs: processLogger === null,
    abortOnError: false,
  });
  context.useLogger(new PinoNestLogger(processLogger ?? createRootLogger(config)));
  return context;
}
