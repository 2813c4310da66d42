import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import type { AppConfig } from '../../config/app-config';

/**
 * One pino logger per process. Lines are buffered and written asynchronously (pino flushes the
 * buffer when the process exits), so a request never waits on a write system call. Keys, tokens,
 * hashes and bodies are never logged: callers pass only what they mean to show.
 */
export function createRootLogger(config: Pick<AppConfig, 'logLevel' | 'logToStderr'>, destination?: pino.DestinationStream): Logger {
  const target = destination ?? pino.destination({ dest: config.logToStderr ? 2 : 1, sync: false, minLength: 4096 });
  return pino({ level: config.logLevel, base: { pid: process.pid } }, target);
}

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
    const pinoLevel = PINO_LEVEL[level];
    if (!this.root.isLevelEnabled(pinoLevel)) return;
    // Nest passes the context last; for errors the stack comes before it.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
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
