import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createContext, prepare } from './bootstrap';
import { UsageError } from './common/cli/command';
import { helpFor, parseCommand, runCommand, usage } from './cli/cli-commands';

/** The operator CLI (CONTRACT.md): one JSON object on stdout with --json, errors on stderr. */
async function cli(argv: string[]): Promise<number> {
  try {
    // Help needs no database: answered before anything starts.
    const help = helpFor(argv);
    if (help !== null) {
      process.stdout.write(`${help}\n`);
      return 0;
    }
    parseCommand(argv);
  } catch (error) {
    process.stderr.write(`error: ${(error as UsageError).message}\n\n${usage()}\n`);
    return 2;
  }
  Logger.overrideLogger(['error']);
  const { config, embedded } = await prepare({ WORKERS: 'off', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  const context = await createContext({ ...config, logToStderr: true });
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

cli(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    process.exit(1);
  });
