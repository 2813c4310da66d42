import type { INestApplicationContext } from '@nestjs/common';

/** A wrong invocation: printed with the usage line, exit code 2. */
export class UsageError extends Error {}

export type Values = Record<string, string | boolean | undefined>;

/** One operator command. Features define theirs beside their code (`<feature>.cli.ts`); src/cli/cli-commands.ts lists them all. */
export interface Command {
  usage: string;
  /** What the command does and prints, for `help <command>`. */
  summary?: string;
  options: Record<string, { type: 'string' | 'boolean' }>;
  positionals?: boolean;
  /**
   * The command opens or seals stored secrets: it starts only with the ENCRYPTION_KEY the
   * database's fingerprint names, as the server does. Other commands skip that check, so that a
   * shell without the server's key can still list projects, and never records a key of its own.
   */
  opensSealedValues?: boolean;
  /** The command writes stdout itself (the MCP server speaks its protocol there): nothing else is printed on it. */
  ownsStdout?: boolean;
  run(context: INestApplicationContext, values: Values, positionals: string[]): Promise<Record<string, unknown>>;
  /** What the operator should know about a successful run's defaults: printed on stderr, so `--json` output stays one object. */
  notes?(values: Values): string[];
}

/** The `--json` flag every command accepts. */
export const JSON_OPTION = { type: 'boolean' as const };

export function requireString(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.length === 0) throw new UsageError(`--${name} is required`);
  return value;
}
