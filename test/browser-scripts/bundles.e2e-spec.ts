import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { bundleFromSources, readBuiltBundles } from '../../src/browser-scripts/bundle-source';
import { BASE_URL_PLACEHOLDER, BROWSER_SCRIPTS } from '../../src/browser-scripts/served-script';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

// The budgets, gzip level 9, 1 kB = 1,024 bytes.
const BUDGETS = { notifications: 12 * 1024, changelog: 10 * 1024 };

/**
 * What the scripts may never contain, whatever the source looks like: code from strings (a CSP
 * without 'unsafe-eval' refuses it), markup from strings, and inline styles (refused without
 * 'unsafe-inline'; styles go through adoptedStyleSheets).
 */
const FORBIDDEN: [string, RegExp][] = [
  ['eval', /\beval\s*\(/],
  ['new Function', /\bnew\s+Function\b/],
  ['Function()', /\bFunction\s*\(/],
  ['a timer with a string', /\bset(Timeout|Interval)\s*\(\s*["'`]/],
  ['markup from a string', /\b(innerHTML|outerHTML|insertAdjacentHTML|createContextualFragment)\b|document\.write/],
  ['an inline style', /\bstyle\s*=|\.style\b|\bcssText\b|setAttribute\(\s*["'`]style/],
];

/** `npm run build`'s second step, into a folder of this test, as the server reads it. */
describe('the browser script build (scripts/build-browser.js)', () => {
  let outdir: string;
  let printed: string;

  beforeAll(async () => {
    outdir = mkdtempSync(join(tmpdir(), 'launch-browser-'));
    printed = (await run(process.execPath, [join(ROOT, 'scripts', 'build-browser.js'), '--outdir', outdir], { cwd: ROOT })).stdout;
  });
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  const file = (name: string) => readFileSync(join(outdir, name));

  it.each(BROWSER_SCRIPTS)('keeps %s.js within its gzip -9 budget and prints its size against it', (name) => {
    const gzipped = gzipSync(file(`${name}.js`), { level: 9 }).length;
    expect(gzipped).toBeLessThanOrEqual(BUDGETS[name]);
    const manifest = JSON.parse(file('manifest.json').toString('utf8'));
    expect(manifest.scripts[name]).toMatchObject({
      file: `${name}.js`,
      map: `${name}.js.map`,
      bytes: file(`${name}.js`).length,
      gzip_bytes: gzipped,
      budget_gzip_bytes: BUDGETS[name],
    });
    const line = printed.split('\n').find((candidate) => candidate.trim().startsWith(`${name}.js`));
    expect(line).toContain(`${(gzipped / 1024).toFixed(1)} kB of ${(BUDGETS[name] / 1024).toFixed(1)} kB`);
    expect(line).not.toContain('OVER BUDGET');
  });

  it.each(BROWSER_SCRIPTS)('builds %s.js as a minified IIFE with no eval, no code or markup from strings and no inline style', (name) => {
    const code = file(`${name}.js`).toString('utf8');
    expect(code.startsWith('"use strict";(()=>{')).toBe(true);
    expect(code.endsWith(`})();\n//# sourceMappingURL=${name}.js.map\n`)).toBe(true);
    expect(code.split(BASE_URL_PLACEHOLDER)).toHaveLength(2);
    expect(FORBIDDEN.filter(([, pattern]) => pattern.test(code)).map(([what]) => what)).toEqual([]);
    const map = JSON.parse(file(`${name}.js.map`).toString('utf8'));
    expect(map.sources.every((source: string) => source.startsWith('src/browser/'))).toBe(true);
  });

  it('writes exactly what the server bundles in memory when it runs from the sources (the test suites)', async () => {
    for (const bundle of await bundleFromSources()) {
      expect(bundle.script.equals(file(`${bundle.name}.js`))).toBe(true);
      expect(bundle.map.equals(file(`${bundle.name}.js.map`))).toBe(true);
    }
  });

  it('is what a compiled server reads, which refuses to start without it, naming the command', () => {
    expect(readBuiltBundles(outdir).map(({ name, script }) => [name, script.length])).toEqual(
      BROWSER_SCRIPTS.map((name) => [name, file(`${name}.js`).length]),
    );
    expect(() => readBuiltBundles(join(outdir, 'missing'))).toThrow(
      `The browser scripts are not built: ${join(outdir, 'missing', 'notifications.js')} or its .map is missing. Run \`npm run build\``,
    );
  });

  it('finds the forbidden patterns it looks for', () => {
    const samples = [
      'eval("1")',
      'new Function("a")',
      'Function("return this")()',
      'setTimeout("x()",1)',
      'e.innerHTML=t',
      'e.style.color="red"',
      '<b style="x">',
    ];
    expect(samples.filter((sample) => !FORBIDDEN.some(([, pattern]) => pattern.test(sample)))).toEqual([]);
  });
});
