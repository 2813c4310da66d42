import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm run bench` loads the service's own modules from dist/ (its SQL helpers, mappers, channel
 * names), by path. A source file renamed without its bench caller breaks the bench only when that
 * route runs, long after `npm test` passed: this names every such path the bench holds.
 */
const ROOT = join(__dirname, '../..');

/** The dist/ modules a bench script names: `require('../dist/x')`, `dist('x')` and `dist(\`x\`)`. */
function distModulesNamed(text: string): string[] {
  const paths = new Set<string>();
  for (const match of text.matchAll(/require\(\s*['"`]\.\.\/dist\/([^'"`$]+)['"`]\s*\)/g)) paths.add(match[1]);
  for (const match of text.matchAll(/\bdist\(\s*['"`]([^'"`$]+)['"`]\s*\)/g)) paths.add(match[1]);
  return [...paths].sort();
}

/** The dist/ paths with no source file that builds them (src/<path>.ts). */
function missingSources(paths: string[]): string[] {
  return paths.filter((path) => !existsSync(join(ROOT, 'src', `${path.replace(/\.js$/, '')}.ts`)));
}

describe('bench scripts', () => {
  const scripts = readdirSync(join(ROOT, 'bench')).filter((name) => name.endsWith('.js'));

  it('name only dist/ modules that the build produces', () => {
    const problems = scripts.flatMap((name) =>
      missingSources(distModulesNamed(readFileSync(join(ROOT, 'bench', name), 'utf8'))).map((path) => `bench/${name}: dist/${path}`),
    );
    expect(problems).toEqual([]);
  });

  it('finds the paths in each form the scripts use, and a renamed one', () => {
    const text = [
      "const { newId } = require('../dist/common/ids/ids');",
      "const { a } = dist('waitlist/waitlist.queries');",
      'const { b } = dist(`projects/plans`);',
      "const { c } = require('../dist/infra/database/change-notifications');",
    ].join('\n');
    const named = distModulesNamed(text);
    expect(named).toEqual(['common/ids/ids', 'infra/database/change-notifications', 'projects/plans', 'waitlist/waitlist.queries']);
    expect(missingSources(named)).toEqual(['infra/database/change-notifications']);
    // The scripts do name some (the check would be empty otherwise).
    expect(scripts.flatMap((name) => distModulesNamed(readFileSync(join(ROOT, 'bench', name), 'utf8'))).length).toBeGreaterThan(20);
  });
});
