import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';
import { RUNTIME_FLAGS } from '../support/server-process';

/**
 * `docker compose -f docker/compose.yaml up --scale api=2 --scale worker=2` works as written
 * (docs/production.md). Docker is not needed: the file is read as compose reads it (YAML with merge
 * keys), and so is the load balancer's nginx configuration, for what a second replica needs: no
 * fixed host port on a scaled service, a load balancer that re-resolves the `api` name, health
 * checks to wait on, and one `setup` run only when asked for.
 */
const ROOT = join(__dirname, '..', '..');
const DOCKER = join(ROOT, 'docker');

interface Healthcheck {
  test: string[] | string;
  interval?: string;
}

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  ports?: unknown[];
  volumes?: string[];
  healthcheck?: Healthcheck;
  depends_on?: Record<string, { condition: string }>;
  profiles?: string[];
  restart?: string;
  container_name?: string;
}

const compose = load(readFileSync(join(DOCKER, 'compose.yaml'), 'utf8'), { schema: CORE_SCHEMA.withTags(mergeTag) }) as {
  services: Record<string, Service>;
};
const services = compose.services;

/** The services the documented command runs more than one of. */
const SCALED = ['api', 'worker'];

/** A short-syntax port `[host:]container` whose host side is fixed: two replicas would both claim it. */
function fixedHostPort(port: unknown): boolean {
  if (typeof port === 'object' && port !== null) return 'published' in port;
  const parts = String(port).split(':');
  return parts.length > 1 && parts[parts.length - 2] !== '';
}

/** nginx directives, comments removed; `{` and `}` kept as their own entries. */
function directives(text: string): string[] {
  const withoutComments = text
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, ''))
    .join('\n');
  return withoutComments
    .split(/([;{}])/)
    .reduce<string[]>((out, part, index, parts) => {
      if (part === ';' || part.trim() === '') return out;
      if (part === '{' || part === '}') return [...out, part];
      return parts[index + 1] === '{' ? [...out, part.trim()] : [...out, `${part.trim()};`];
    }, [])
    .map((entry) => entry.replace(/\s+/g, ' '));
}

describe('docker/compose.yaml scaled out', () => {
  it('says how to scale, and scaled services claim no fixed host port and no container name', () => {
    expect(readFileSync(join(DOCKER, 'compose.yaml'), 'utf8')).toContain('--scale api=2 --scale worker=2');
    for (const name of SCALED) {
      expect(services[name]).toBeDefined();
      expect((services[name].ports ?? []).filter(fixedHostPort)).toEqual([]);
      expect(services[name].container_name).toBeUndefined();
    }
    // Port 3000 is the load balancer's alone.
    const publishing3000 = Object.entries(services)
      .filter(([, service]) => (service.ports ?? []).some((port) => String(port).split(':').at(-2) === '3000'))
      .map(([name]) => name);
    expect(publishing3000).toEqual(['lb']);
    expect(services.lb.ports).toEqual(['3000:3000']);
  });

  it('puts nginx in front of the api service, re-resolving its replicas through Docker DNS', () => {
    const lb = services.lb;
    expect(lb.image).toMatch(/^nginx:[\d.]+-alpine$/);
    const mount = (lb.volumes ?? []).find((volume) => volume.includes('/etc/nginx/conf.d/default.conf'));
    expect(mount).toBe('./lb.conf:/etc/nginx/conf.d/default.conf:ro');
    const path = resolve(DOCKER, (mount as string).split(':')[0]);
    expect(existsSync(path)).toBe(true);

    const conf = directives(readFileSync(path, 'utf8'));
    // Balanced blocks: every `{` closed, never below zero.
    let depth = 0;
    for (const entry of conf) {
      depth += entry === '{' ? 1 : entry === '}' ? -1 : 0;
      expect(depth).toBeGreaterThanOrEqual(0);
    }
    expect(depth).toBe(0);
    expect(conf).toContain('resolver 127.0.0.11 valid=5s ipv6=off;');
    expect(conf).toContain('listen 3000;');
    // The upstream is a variable (resolved per request by the resolver above), naming the api
    // service on the port its health check and the image use.
    const sets = conf.filter((entry) => entry.startsWith('set $api_upstream '));
    expect(sets.length).toBeGreaterThan(0);
    expect(new Set(sets)).toEqual(new Set(['set $api_upstream http://api:3000;']));
    const passes = conf.filter((entry) => entry.startsWith('proxy_pass '));
    expect(passes).toEqual(sets.map(() => 'proxy_pass $api_upstream;'));
    expect(conf.filter((entry) => entry.startsWith('proxy_set_header X-Forwarded-For '))).toEqual(
      sets.map(() => 'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;'),
    );
    // Behind that one hop the API reads the client's address from X-Forwarded-For.
    expect(services.api.environment?.TRUST_PROXY).toBe('1');
    expect(lb.depends_on).toEqual({ api: { condition: 'service_healthy' } });
  });

  it('gives api, worker and the load balancer health checks that the dependants wait on', () => {
    expect(services.api.healthcheck?.test).toEqual([
      'CMD',
      'node',
      '-e',
      "fetch('http://127.0.0.1:3000/v1/_health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))",
    ]);
    expect(services.worker.healthcheck?.test).toEqual(['CMD', 'node', 'dist/worker-health.js']);
    expect(services.lb.healthcheck?.test).toEqual(['CMD', 'wget', '-q', '-O', '/dev/null', 'http://127.0.0.1:3000/v1/_health']);
    // Whatever waits for a service to be healthy waits on one that has a check.
    const waits = Object.entries(services).flatMap(([name, service]) =>
      Object.entries(service.depends_on ?? {})
        .filter(([, { condition }]) => condition === 'service_healthy')
        .map(([dependency]) => [name, dependency]),
    );
    expect(waits.length).toBeGreaterThanOrEqual(5);
    expect(waits.filter(([, dependency]) => services[dependency]?.healthcheck === undefined)).toEqual([]);
    expect(services.api.environment?.WORKERS).toBe('off');
    expect(services.worker.command).toEqual(['node', ...RUNTIME_FLAGS, 'dist/worker.js']);
  });

  it('runs setup once, only when asked for', () => {
    const setup = services.setup;
    expect(setup.profiles).toEqual(['setup']);
    expect(setup.restart).toBe('no');
    expect(setup.ports).toBeUndefined();
    expect(setup.command?.slice(0, 3)).toEqual(['node', 'dist/cli.js', 'project:create']);
    expect(setup.depends_on).toEqual({ api: { condition: 'service_healthy' } });
    // Every other service starts with `up`.
    const profiled = Object.entries(services)
      .filter(([, service]) => service.profiles !== undefined)
      .map(([name]) => name);
    expect(profiled).toEqual(['setup']);
  });

  it('keeps Redis as BullMQ needs it', () => {
    expect(services.redis.command).toEqual(['redis-server', '--appendonly', 'yes', '--maxmemory-policy', 'noeviction']);
  });
});
