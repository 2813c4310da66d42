import 'reflect-metadata';
import { createContext, failStart, prepare } from './bootstrap';
import { type Command, UsageError } from './common/cli/command';
import { helpFor, parseCommand, runCommand, usage } from './cli/cli-commands';
import { ProcessLifecycle } from './shutdown';

/** The operator CLI (CONTRACT.md): one JSON object on stdout with --json, errors on stderr. */
async function cli(lifecycle: ProcessLifecycle, argv: string[]): Promise<number> {
  let command: Command;
  try {
    // Help needs no database: answered before anything starts.
    const help = helpFor(argv);
    if (help !== null) {
      process.stdout.write(`${help}\n`);
      return 0;
    }
    command = parseCommand(argv).command;
  } catch (error) {
    process.stderr.write(`error: ${(error as UsageError).message}\n\n${usage()}\n`);
    return 2;
  }
  // Log lines go to stderr (warnings and errors only, unless LOG_LEVEL says otherwise): stdout is the command's.
  const { config, embedded } = await prepare(lifecycle, {
    cli: true,
    overrides: { WORKERS: 'off', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  });
  const context = await createContext(config, { checkEncryptionKey: command.opensSealedValues === true });
  try {
    return await runCommand(context, argv, {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
    });
  } finally {
    await context.close();
    await embedded?.stop();
  }
}

// A signal while a command runs lets it finish and close the embedded database (ProcessLifecycle).
const lifecycle = new ProcessLifecycle();
cli(lifecycle, process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => failStart(lifecycle, error),
);
