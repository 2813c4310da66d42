import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { deleteRedisKeysAtFileEnd } from './redis-keys';

/** The V8 flags every service process runs with (scripts/runtime-flags.js). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { RUNTIME_FLAGS } = require('../../scripts/runtime-flags') as { RUNTIME_FLAGS: readonly string[] };

/**
 * The service as a real child process (`node dist/main.js`), for tests that signal or kill it.
 * Global setup starts compiling the sources into LAUNCH_TEST_BUILD_DIR in the background
 * (startBackgroundBuild), so the compilation overlaps the first test files instead of counting
 * against a test's timeout; a test that needs the build waits for its marker file.
 */
const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const BUILD_WAIT_MS = 300_000;

function buildDir(): string {
  const dir = process.env.LAUNCH_TEST_BUILD_DIR;
  if (!dir) throw new Error('LAUNCH_TEST_BUILD_DIR is not set: run the e2e suites through jest (global setup)');
  return dir;
}

/**
 * Starts the build `npm run build` does (`tsc`, then the browser scripts into `dir/browser`) without
 * waiting; it writes `dir/.ready`, or `dir.failed` with the output. Returns its pid.
 */
export function startBackgroundBuild(dir: string): number {
  mkdirSync(dirname(dir), { recursive: true });
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const quote = (args: string[]) => [process.execPath, ...args].map((part) => `'${part}'`).join(' ');
  const compile = quote([tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', dir, '--tsBuildInfoFile', join(dir, '.tsbuildinfo')]);
  const bundle = quote([join(ROOT, 'scripts', 'build-browser.js'), '--outdir', join(dir, 'browser')]);
  const command = `{ ${compile} && ${bundle}; } > '${dir}.log' 2>&1 && touch '${dir}/.ready' || mv '${dir}.log' '${dir}.failed'`;
  const child = spawn('sh', ['-c', command], {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  return child.pid ?? 0;
}

/** Waits for the background build of this run and returns its folder. */
export async function ensureBuild(): Promise<string> {
  const dir = buildDir();
  for (let waited = 0; waited < BUILD_WAIT_MS; waited += 200) {
    if (existsSync(join(dir, '.ready'))) return dir;
    if (existsSync(`${dir}.failed`)) throw new Error(`the build failed:\n${readFileSync(`${dir}.failed`, 'utf8')}`);
    await sleep(200);
  }
  throw new Error(`the build in ${dir} did not finish within ${BUILD_WAIT_MS / 1000} s`);
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  /** Sends the signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/**
 * Starts `node dist/main.js` on a free port with the given environment (DATABASE_URL at least;
 * REDIS_URL is not inherited unless given) and waits until `/v1/_health` answers 200. With
 * REDIS_URL and QUEUE_PREFIX, the prefix's keys are deleted when the test file ends.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  deleteRedisKeysAtFileEnd(env.REDIS_URL, env.QUEUE_PREFIX);
  const dir = await ensureBuild();
  const port = await freePort();
  const inherited = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  const child = spawn(process.execPath, [...RUNTIME_FLAGS, join(dir, 'main.js')], {
    cwd: ROOT,
    env: { ...inherited, PORT: String(port), LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  for (let waited = 0; waited < 60_000; waited += 100) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/v1/_health`);
      if (res.status === 200) return { child, port, url, output: () => output, exited, stop };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not answer /v1/_health within 60 s:\n${output}`);
}

/** Runs the operator CLI of the build (`node dist/cli.js …`) and parses its --json answer. */
export async function runCli(env: Record<string, string>, ...argv: string[]): Promise<Record<string, unknown>> {
  const dir = await ensureBuild();
  const { stdout } = await run(process.execPath, [join(dir, 'cli.js'), ...argv, '--json'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

export interface EndedProcess {
  /** The exit code, or the signal's name when it was killed. */
  code: number | string;
  /** stdout and stderr as they came. */
  output: string;
  stdout: string;
  ms: number;
}

/**
 * Runs `node <build>/<script> …args` with only PATH and the given environment until it exits by
 * itself, or kills it after `limitMs` (the code is then 'SIGKILL'). For start-up refusals.
 */
export async function runToExit(script: string, env: Record<string, string>, limitMs: number, ...args: string[]): Promise<EndedProcess> {
  const dir = await ensureBuild();
  const started = Date.now();
  const child = spawn(process.execPath, [join(dir, script), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const code = await new Promise<number | string>((resolve) => child.once('exit', (exit, signal) => resolve(exit ?? signal ?? -1)));
  clearTimeout(timer);
  return { code, output, stdout, ms: Date.now() - started };
}

/** The JSON log lines at error level or above; a line that is not a log line (a stack, a library's print) counts as one. */
export function errorLogLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return { level: 50, raw: line };
      }
    })
    .filter((entry) => typeof entry.level === 'number' && entry.level >= 50);
}
