import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import { prettyStream } from './pretty-stream';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type LogFormat = 'json' | 'pretty';

/** What the logger reads of the configuration (AppConfig has it; the kernel's common/ imports no config/). */
export interface LogSettings {
  readonly logLevel: LogLevel;
  readonly logToStderr: boolean;
  readonly logFormat?: LogFormat;
}

/** The longest a JSON log line waits in the buffer on a quiet server. */
export const LOG_FLUSH_INTERVAL_MS = 1_000;

/**
 * Where JSON lines go: buffered and written asynchronously, so a request never waits on a write
 * system call. A busy server writes whenever 4 KB have gathered; a quiet one would keep its last
 * lines (the one error of the night) until the next 4 KB, so the buffer is also written every
 * LOG_FLUSH_INTERVAL_MS, and when the process exits.
 *
 * The buffer holds bytes, not text: in text mode sonic-boom measures the UTF-8 length of the whole
 * pending chunk on every line (up to 16 KB), which cost the cheapest routes a few per cent of their
 * CPU. Each line is encoded once instead; pino's exit flush and broken-pipe handling are kept.
 */
export function jsonLogDestination(fd: number): pino.DestinationStream {
  const destination = pino.destination({
    dest: fd,
    sync: false,
    minLength: 4096,
    periodicFlush: LOG_FLUSH_INTERVAL_MS,
    contentMode: 'buffer',
  });
  const writeBytes = destination.write as unknown as (bytes: Buffer) => boolean;
  destination.write = (line: string) => writeBytes.call(destination, Buffer.from(line, 'utf8'));
  return destination;
}

/**
 * One pino logger per process. Keys, tokens, hashes and bodies are never logged: callers pass only
 * what they mean to show.
 */
export function createRootLogger(config: LogSettings, destination?: pino.DestinationStream): Logger {
  const fd = config.logToStderr ? 2 : 1;
  const target = destination ?? (config.logFormat === 'pretty' ? prettyStream(fd) : jsonLogDestination(fd));
  return pino({ level: config.logLevel, base: { pid: process.pid } }, target);
}

/**
 * Nest's start-up narration (every module initialised, every route mapped) is written at debug:
 * at info it pushes the demo banner off the screen. ExceptionHandler repeats a start-up failure
 * that main.ts, worker.ts and cli.ts already log once, as one line.
 */
const DEBUG_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
  'ExceptionHandler',
]);

type NestLevel = 'log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal';
const PINO_LEVEL: Record<NestLevel, pino.Level> = {
  log: 'info',
  error: 'error',
  warn: 'warn',
  debug: 'debug',
  verbose: 'trace',
  fatal: 'fatal',
};

/**
 * Nest's LoggerService over pino: `new Logger(ClassName.name)` anywhere writes through the root
 * logger with `context` set to the class name. An object as the message (`{ err, request_id }`)
 * becomes fields of the line; an Error keeps its stack.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly root: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('log', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('verbose', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: NestLevel, message: unknown, rest: unknown[]): void {
    // Nest passes the context last; for errors the stack comes before it.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const pinoLevel = context !== undefined && DEBUG_CONTEXTS.has(context) ? 'debug' : PINO_LEVEL[level];
    if (!this.root.isLevelEnabled(pinoLevel)) return;
    const stack = level === 'error' && rest.length === 2 && typeof rest[0] === 'string' ? rest[0] : undefined;
    if (message instanceof Error) {
      this.root[pinoLevel]({ context, err: message }, message.message);
    } else if (message && typeof message === 'object') {
      const { msg, ...fields } = message as Record<string, unknown>;
      this.root[pinoLevel]({ context, ...fields }, typeof msg === 'string' ? msg : undefined);
    } else {
      this.root[pinoLevel]({ context, ...(stack ? { stack } : {}) }, String(message));
    }
  }
}
