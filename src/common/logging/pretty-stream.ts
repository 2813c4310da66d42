import { writeSync } from 'node:fs';
import { isatty } from 'node:tty';

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const LEVEL_COLOURS: Record<number, string> = { 10: '90', 20: '36', 30: '32', 40: '33', 50: '31', 60: '35' };
// pino's own fields, and the ones the line shows up front.
const SHOWN_APART = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'context', 'err']);

function clock(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  return date.toTimeString().slice(0, 8);
}

function fieldText(value: unknown): string {
  return typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value);
}

/** One pino JSON line as a person reads it: `12:00:01 WARN  [Context] message key=value`, then a stack if any. */
export function prettyLine(json: string, colour: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const name = (LEVEL_NAMES[level] ?? 'INFO').padEnd(5);
  const shownLevel = colour ? `\u001b[${LEVEL_COLOURS[level] ?? '0'}m${name}\u001b[0m` : name;
  const context = typeof entry.context === 'string' ? ` [${entry.context}]` : '';
  const err = entry.err as { message?: string; stack?: string } | undefined;
  const message = typeof entry.msg === 'string' ? entry.msg : (err?.message ?? '');
  // A field the message already says (a start-up failure's setting and reason) is not repeated.
  const fields = Object.entries(entry)
    .filter(([key, value]) => !SHOWN_APART.has(key) && !(typeof value === 'string' && message.includes(value)))
    .map(([key, value]) => ` ${key}=${fieldText(value)}`)
    .join('');
  const stack = err?.stack ? `\n${err.stack}` : '';
  return `${clock(entry.time)} ${shownLevel}${context} ${message}${fields}${stack}\n`;
}

/**
 * LOG_FORMAT=pretty: a pino destination that rewrites each line for a terminal. Written
 * synchronously: it is for a person watching `npm start`, never for a loaded production server.
 */
export function prettyStream(fd: number): { write(line: string): void } {
  const colour = isatty(fd);
  return { write: (line: string) => void writeSync(fd, prettyLine(line, colour)) };
}
