import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RUNTIME_FLAGS } from '../support/server-process';

/**
 * Every service process runs with the V8 flags of scripts/runtime-flags.js. The npm scripts, the
 * Docker image and its compose file cannot import them and repeat them; the dev runner, the test
 * harness and the benchmarks import them. A copy that drifts would run the service, or measure it,
 * with other flags than production.
 */
const ROOT = join(__dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
// The flags themselves, and this check.
const OWN_COPIES = new Set(['scripts/runtime-flags.js', 'test/lint/runtime-flags.e2e-spec.ts']);
/** A flag without its value: what a copy written out elsewhere would contain. */
const FLAG_NAMES = RUNTIME_FLAGS.map((flag) => flag.split('=')[0]);

describe('runtime flags', () => {
  it('are the ones node accepts', () => {
    const run = spawnSync(process.execPath, [...RUNTIME_FLAGS, '-e', '0'], { encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('start every process of the npm scripts', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const command = `node ${RUNTIME_FLAGS.join(' ')} dist/`;
    expect({
      start: scripts.start.includes(`exec ${command}main.js`),
      'start:prod': scripts['start:prod'] === `${command}main.js`,
      'start:worker': scripts['start:worker'] === `${command}worker.js`,
    }).toEqual({ start: true, 'start:prod': true, 'start:worker': true });
  });

  it('start the image and both of its compose services', () => {
    const quoted = (quote: string) => RUNTIME_FLAGS.map((flag) => `${quote}${flag}${quote}`).join(', ');
    expect(read('docker/Dockerfile')).toContain(`CMD ["node", ${quoted('"')}, "dist/main.js"]`);
    expect(read('docker/compose.yaml')).toContain(`command: ['node', ${quoted("'")}, 'dist/worker.js']`);
  });

  it('are written out nowhere else', () => {
    const copies: string[] = [];
    const scan = (folder: string) => {
      for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
        const path = `${folder}/${entry.name}`;
        if (entry.isDirectory()) scan(path);
        else if (/\.(ts|js|cjs|mjs)$/.test(entry.name) && !OWN_COPIES.has(path)) {
          const text = read(path);
          copies.push(...FLAG_NAMES.filter((name) => text.includes(name)).map((name) => `${path}: ${name}`));
        }
      }
    };
    for (const folder of ['src', 'test', 'bench', 'scripts']) scan(folder);
    expect(copies).toEqual([]);
  });
});
