// `npm run start:dev`: tsc recompiles on every change, esbuild rebundles the browser scripts on
// every change in src/browser/, and node restarts the server when dist/ changes. The server shuts
// down in order on each restart (SIGTERM), so the embedded database is closed and its lock released
// before the next one opens it.
const { spawn, spawnSync } = require('node:child_process');
const { join } = require('node:path');
const { RUNTIME_FLAGS } = require('./runtime-flags');

const ROOT = join(__dirname, '..');
const built = spawnSync(process.execPath, [join(__dirname, 'build-if-stale.js')], { cwd: ROOT, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const tsc = spawn(
  process.execPath,
  [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput'],
  {
    cwd: ROOT,
    stdio: ['ignore', 2, 2],
  },
);
const browser = spawn(process.execPath, [join(__dirname, 'build-browser.js'), '--watch'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
const server = spawn(process.execPath, ['--watch-path=dist', ...RUNTIME_FLAGS, 'dist/main.js'], { cwd: ROOT, stdio: 'inherit' });

// Ctrl-C reaches every child from the terminal; a signal sent to this process alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    tsc.kill(signal);
    browser.kill(signal);
    server.kill(signal);
  });
}
server.on('exit', (code, signal) => {
  tsc.kill('SIGTERM');
  browser.kill('SIGTERM');
  process.exit(code ?? (signal ? 1 : 0));
});
