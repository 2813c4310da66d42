/**
 * The closed list of role suffixes: what a file that declares a Nest class (or a job handler, a
 * guard, a pipe…) must be called, and what a file with a role suffix must declare. Pure text
 * checks, so a planted file proves the rule without compiling anything.
 */
export interface FileRole {
  suffix: string;
  what: string;
  /** What a file of this role declares; the suffix is refused on a file that does not. */
  declares: RegExp;
}

const INJECTABLE = /@Injectable\(/;

export const FILE_ROLES: readonly FileRole[] = [
  { suffix: '.module.ts', what: 'a Nest module', declares: /@Module\(/ },
  { suffix: '.controller.ts', what: 'HTTP routes (one-line handlers)', declares: /@Controller\(/ },
  {
    suffix: '.service.ts',
    what: 'a use case’s rules or a capability other modules call',
    declares: INJECTABLE,
  },
  {
    suffix: '.processor.ts',
    what: 'a job’s entry point: its @OnJob handler, which hands the job to the service that queued it; and the queue’s worker host',
    declares: /@OnJob\(|extends WorkerHost/,
  },
  { suffix: '.guard.ts', what: 'a guard', declares: /implements CanActivate/ },
  { suffix: '.step.ts', what: 'one step of the route-policy guard', declares: /implements PolicyStep/ },
  { suffix: '.middleware.ts', what: 'an Express layer', declares: /implements NestMiddleware|export function \w+Middleware\(/ },
  { suffix: '.pipe.ts', what: 'a pipe', declares: /implements PipeTransform|extends ValidationPipe/ },
  { suffix: '.filter.ts', what: 'an exception filter', declares: /@Catch\(/ },
  { suffix: '.strategy.ts', what: 'a passport strategy', declares: /extends PassportStrategy\(/ },
  { suffix: '.cache.ts', what: 'an in-process copy of database state, kept exact by change notifications', declares: INJECTABLE },
  { suffix: '.client.ts', what: 'the API of a system outside the service (Stripe, Turnstile)', declares: INJECTABLE },
  { suffix: '.factory.ts', what: 'an injectable that builds objects per session or request', declares: INJECTABLE },
  {
    suffix: '.queries.ts',
    what: 'SQL helpers: plain functions taking the connection first, no class',
    declares: /^(?![\s\S]*@Injectable\()/,
  },
];

/** What marks a file as holding a role at all: any of these needs a role suffix. */
const ROLE_MARKERS = [
  INJECTABLE,
  /@Controller\(/,
  /@Module\(/,
  /@Catch\(/,
  /implements (CanActivate|NestMiddleware|PipeTransform|PolicyStep)\b/,
  /extends (WorkerHost|ValidationPipe|PassportStrategy\()/,
  /@OnJob\(/,
];

/** Markers that decide the suffix outright, whatever else the file holds. */
const DECIDING: [RegExp, string][] = [
  [/@Controller\(/, '.controller.ts'],
  [/@Module\(/, '.module.ts'],
];

export interface RoleSource {
  path: string;
  text: string;
}

/** The file's declarations without comments, so a doc comment that shows `@OnJob(…)` is not one. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

export function roleViolations(files: readonly RoleSource[]): string[] {
  const violations: string[] = [];
  for (const { path, text } of files) {
    const body = code(text);
    const role = FILE_ROLES.find((candidate) => path.endsWith(candidate.suffix));
    const marked = ROLE_MARKERS.some((marker) => marker.test(body));
    if (!role) {
      if (marked) violations.push(`${path}: declares a Nest class or handler but its name has no role suffix`);
      continue;
    }
    if (!role.declares.test(body)) violations.push(`${path}: named ${role.suffix} (${role.what}) but declares none`);
    for (const [marker, suffix] of DECIDING) {
      if (marker.test(body) && role.suffix !== suffix)
        violations.push(`${path}: declares what ${suffix} files hold, but is named ${role.suffix}`);
    }
    if (/@OnJob\(/.test(body) && role.suffix !== '.processor.ts')
      violations.push(`${path}: holds an @OnJob handler, which belongs in a .processor.ts`);
  }
  return violations;
}
