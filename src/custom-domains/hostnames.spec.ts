import { PLAN_NAMES, planAllows, planLimit } from '../projects/plans';
import { hostnameProblem, normalizeHostname } from './hostnames';

const OURS = ['launch.test', 'domains.launch.test'];

describe('hostnameProblem', () => {
  it.each(['changelog.example.com', 'a.io', 'news.acme-corp.co.uk', 'xn--bcher-kva.example', 'x1.example.dev'])('accepts %s', (host) => {
    expect(hostnameProblem(host, OURS)).toBeNull();
  });

  it.each([
    ['', /empty/],
    ['localhost', /two labels/],
    ['192.168.1.10', /IP address/],
    ['::1', /IP address/],
    ['[2001:db8::1]', /IP address/],
    ['1.2.3', /top-level/],
    ['example.com:8080', /bare hostname/],
    ['https://example.com', /bare hostname/],
    ['-bad.example.com', /letters, digits/],
    ['bad-.example.com', /letters, digits/],
    ['under_score.example.com', /letters, digits/],
    ['a..example.com', /letters, digits/],
    [`${'a'.repeat(64)}.example.com`, /letters, digits/],
    [`${'a.'.repeat(127)}com`, /at most 253/],
    ['launch.test', /this service's own/],
    ['evil.launch.test', /this service's own/],
    ['x.domains.launch.test', /this service's own/],
  ])('refuses %s', (host, reason) => {
    expect(hostnameProblem(host, OURS)).toMatch(reason);
  });

  it('normalizes case, spaces and the trailing dot', () => {
    expect(normalizeHostname('  Docs.Example.COM. ')).toBe('docs.example.com');
  });
});

describe('custom domain limits', () => {
  it('give hostnames exactly to the plans with the custom_domain feature', () => {
    for (const plan of PLAN_NAMES) expect(planLimit(plan, 'customDomains') > 0).toBe(planAllows(plan, 'custom_domain'));
  });
});
