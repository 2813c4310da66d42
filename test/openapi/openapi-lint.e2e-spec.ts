import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

// The two linters integrators' tools are built on, run on the committed document with the
// repository's redocly.yaml and .spectral.yaml. Both run at once: together about 20 s of CPU, which
// on two cores shared with the rest of the suite can take well over a minute of wall time.
const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
// No usage reporting from a test run, and no update banner in the output.
const QUIET = { NO_COLOR: '1', REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

async function lint(command: string, args: string[]): Promise<{ code: number; stdout: string; output: string }> {
  try {
    const { stdout, stderr } = await run(bin(command), args, {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, ...QUIET },
    });
    return { code: 0, stdout, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('openapi/openapi.json lint', () => {
  it('passes Redocly (no errors, no warnings) and Spectral spectral:oas (no warnings)', async () => {
    const [redocly, spectral] = await Promise.all([
      lint('redocly', ['lint', 'openapi/openapi.json', '--format=json', '--max-problems=50']),
      lint('spectral', ['lint', 'openapi/openapi.json', '--ruleset=.spectral.yaml', '--fail-severity=warn', '--format=text']),
    ]);
    const report = JSON.parse(redocly.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const problems = report.problems.map((problem) => `${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`);
    expect({ redocly: report.totals, problems }).toEqual({ redocly: { errors: 0, warnings: 0, ignored: 0 }, problems: [] });
    expect({ code: spectral.code, output: spectral.code === 0 ? '' : spectral.output }).toEqual({ code: 0, output: '' });
  }, 180_000);
});
