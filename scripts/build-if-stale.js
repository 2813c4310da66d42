// Builds as `npm run build` does (tsc, then the browser scripts of src/browser/ with esbuild) unless
// dist/ is already newer than every source file, tsconfig and build script, so that `npm start` and
// `npm run cli` skip the compiler (seconds) when nothing changed (a few ms). The build's output goes
// to stderr: `npm run -s cli -- … --json` keeps stdout for the command's JSON.
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, utimesSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
// Written after a build that succeeded, dated to when that build started.
const STAMP = join(ROOT, 'dist', '.build-stamp');
const INPUTS = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json', 'scripts/build-browser.js'];

/** The newest modification time under `path`; folders count too, so a deleted file is noticed. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

function upToDate() {
  const outputs = [STAMP, join(ROOT, 'dist', 'main.js'), join(ROOT, 'dist', 'browser', 'manifest.json')];
  if (!outputs.every((output) => existsSync(output))) return false;
  const built = statSync(STAMP).mtimeMs;
  const inputs = [join(ROOT, 'src'), ...INPUTS.map((file) => join(ROOT, file)).filter(existsSync)];
  return inputs.every((input) => newest(input) <= built);
}

if (!upToDate()) {
  const started = new Date();
  process.stderr.write('Compiling src/ into dist/ (skipped next time while nothing changes)…\n');
  const tsc = require.resolve('typescript/bin/tsc');
  const steps = [[tsc, '-p', join(ROOT, 'tsconfig.build.json')], [join(__dirname, 'build-browser.js')]];
  for (const args of steps) {
    const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 2, 2] });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  writeFileSync(STAMP, '');
  utimesSync(STAMP, started, started);
}
