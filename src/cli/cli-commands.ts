import type { INestApplicationContext } from '@nestjs/common';
import { parseArgs } from 'node:util';
import { CHANGELOG_DRAFT_COMMANDS } from '../changelog/drafts/drafts.cli';
import { ApiError } from '../common/errors/api-error';
import { Database } from '../infra/database/database.service';
import { ENCRYPTION_COMMANDS } from '../infra/encryption/encryption.cli';
import { REVENUE_COMMANDS } from '../revenue/revenue.cli';
import { WAITLIST_COMMANDS } from '../waitlist/waitlist.cli';
import { type Command, JSON_OPTION as json, UsageError, type Values } from '../common/cli/command';
import { MCP_COMMANDS } from '../mcp/mcp.cli';
import { generateMigration } from './migration-generator';
import { PROJECT_COMMANDS } from './project-commands';

interface CliOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

const COMMANDS: Record<string, Command> = {
  ...PROJECT_COMMANDS,
  migrate: {
    usage: 'migrate [--json]',
    summary: 'Applies pending migrations (the server also applies them at start). Prints {applied: [names]}.',
    options: { json },
    async run(context) {
      return { applied: context.get(Database).appliedMigrations };
    },
  },
  'migration:generate': {
    usage: 'migration:generate <Name>   (development: writes src/infra/database/migrations/<time>-<Name>.ts)',
    options: {},
    positionals: true,
    async run(context, _values, positionals) {
      const name = positionals[0];
      if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) throw new UsageError('Give the migration a PascalCase name');
      return generateMigration(context.get(Database).dataSource, name);
    },
  },
  ...WAITLIST_COMMANDS,
  ...REVENUE_COMMANDS,
  ...CHANGELOG_DRAFT_COMMANDS,
  ...ENCRYPTION_COMMANDS,
  ...MCP_COMMANDS,
};

const HELP_FLAGS = new Set(['--help', '-h']);

export function usage(): string {
  return [
    'Usage: npm run cli -- <command> [options]   (also node dist/cli.js <command>)',
    '',
    ...Object.values(COMMANDS).map((command) => `  ${command.usage}`),
    '',
    '--project takes a project id or its slug. --json prints one JSON object. help <command> explains a command.',
  ].join('\n');
}

/**
 * The help text when the arguments ask for help (`--help`, `-h`, `help`, `help <command>`,
 * `<command> --help`), else null. Help needs no database.
 */
export function helpFor(argv: string[]): string | null {
  const [first, ...rest] = argv;
  if (first === undefined || HELP_FLAGS.has(first)) return first === undefined ? null : usage();
  const named = first === 'help' ? rest[0] : rest.some((arg) => HELP_FLAGS.has(arg)) ? first : undefined;
  if (first === 'help' && named === undefined) return usage();
  if (named === undefined) return null;
  const command = COMMANDS[named];
  if (!command) throw new UsageError(`Unknown command "${named}"`);
  return [`Usage: npm run cli -- ${command.usage}`, ...(command.summary ? ['', command.summary] : [])].join('\n');
}

function render(result: Record<string, unknown>, asJson: boolean): string {
  if (asJson) return JSON.stringify(result);
  return Object.entries(result)
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join('\n');
}

/** Parses the arguments of a command (throws UsageError). */
export function parseCommand(argv: string[]): { command: Command; values: Values; positionals: string[] } {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(name ? `Unknown command "${name}"` : 'No command given');
  try {
    const parsed = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: command.positionals === true });
    return { command, values: parsed.values as Values, positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Runs one command against an application context; returns the process exit code. */
export async function runCommand(context: INestApplicationContext, argv: string[], output: CliOutput): Promise<number> {
  try {
    const help = helpFor(argv);
    if (help !== null) {
      output.stdout(`${help}\n`);
      return 0;
    }
    const { command, values, positionals } = parseCommand(argv);
    const result = await command.run(context, values, positionals);
    if (!command.ownsStdout) output.stdout(`${render(result, values.json === true)}\n`);
    for (const note of command.notes?.(values) ?? []) output.stderr(`note: ${note}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      output.stderr(`error: ${error.message}\n\n${usage()}\n`);
      return 2;
    }
    if (error instanceof ApiError) {
      output.stderr(`error: ${error.code}: ${error.message}\n`);
      return 1;
    }
    output.stderr(`error: ${(error as Error).message}\n`);
    return 1;
  }
}
