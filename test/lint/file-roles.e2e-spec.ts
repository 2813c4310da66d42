import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { FILE_ROLES, type RoleSource, roleViolations } from './file-roles';

const ROOT = join(__dirname, '../..');

/**
 * What the check reads: every TypeScript file of src/ except the browser scripts (src/browser/,
 * DOM code with no Nest classes), migrations (TypeORM's own class shape), declaration files and
 * specs.
 */
function isChecked(path: string): boolean {
  return (
    path.endsWith('.ts') &&
    !path.endsWith('.d.ts') &&
    !path.endsWith('.spec.ts') &&
    !path.startsWith('src/browser/') &&
    !path.startsWith('src/infra/database/migrations/')
  );
}

function sources(): RoleSource[] {
  return readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter(isChecked)
    .sort()
    .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
}

const injectable = (name: string, extra = '') =>
  `import { Injectable } from '@nestjs/common';\n@Injectable()\nexport class ${name} {${extra}}\n`;

describe('file names say what a file is: the closed list of role suffixes', () => {
  it('holds on src/', () => {
    expect(roleViolations(sources())).toEqual([]);
  });

  it('names every role once, each with what it is for', () => {
    const suffixes = FILE_ROLES.map((role) => role.suffix);
    expect(new Set(suffixes).size).toBe(suffixes.length);
    for (const role of FILE_ROLES) expect(role.what).toMatch(/\w+ \w+/);
  });

  it('refuses an injectable without a role suffix, as releases.ts, quota.ts or audience.ts were', () => {
    expect(roleViolations([{ path: 'src/notifications/sending/quota.ts', text: injectable('NotificationQuota') }])).toEqual([
      expect.stringContaining('src/notifications/sending/quota.ts: declares a Nest class or handler but its name has no role suffix'),
    ]);
  });

  it('refuses a suffix whose role the file does not hold', () => {
    const violations = roleViolations([
      { path: 'src/a/helpers.service.ts', text: 'export function helper(): number {\n  return 1;\n}\n' },
      { path: 'src/a/routes.service.ts', text: "import { Controller } from '@nestjs/common';\n@Controller('a')\nexport class A {}\n" },
      { path: 'src/a/a.queries.ts', text: injectable('AQueries') },
      { path: 'src/a/limit.guard.ts', text: injectable('NotAGuard') },
    ]);
    expect(violations).toEqual([
      expect.stringContaining('src/a/helpers.service.ts: named .service.ts'),
      expect.stringContaining('src/a/routes.service.ts: named .service.ts'),
      expect.stringContaining('src/a/routes.service.ts: declares what .controller.ts files hold'),
      expect.stringContaining('src/a/a.queries.ts: named .queries.ts'),
      expect.stringContaining('src/a/limit.guard.ts: named .guard.ts'),
    ]);
  });

  it('puts a job handler in a .processor.ts, and reads no comment as code', () => {
    const handler = injectable('NotificationReleaseProcessor', "\n  @OnJob('notifications.release')\n  handle(): void {}\n");
    expect(roleViolations([{ path: 'src/n/notification-release.processor.ts', text: handler }])).toEqual([]);
    expect(roleViolations([{ path: 'src/n/notification-releases.service.ts', text: handler }])).toEqual([
      expect.stringContaining('holds an @OnJob handler, which belongs in a .processor.ts'),
    ]);
    expect(roleViolations([{ path: 'src/n/release.processor.ts', text: injectable('NotAProcessor') }])).toEqual([
      expect.stringContaining('named .processor.ts'),
    ]);
    expect(
      roleViolations([{ path: 'src/n/notes.ts', text: "/**\n * Usage: @OnJob('x') on a method.\n */\nexport const X = 1;\n" }]),
    ).toEqual([]);
  });
});
