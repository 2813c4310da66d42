import { fakeExchange, policyContext, policyOf, projectRef } from '../../../test/support/policy-context';
import { ApiError } from '../../common/errors/api-error';
import { requestProjectOf } from '../../common/http/request-context';
import type { ProjectsService } from '../../projects/projects.service';
import type { AccountsService } from '../../accounts/accounts.service';
import type { ApiKeysService, AuthenticatedKey } from '../api-keys.service';
import type { DashboardJwt } from '../dashboard-jwt.strategy';
import type { KeyGuessLimiter } from '../key-guess-limiter.service';
import type { KeyUsageRecorder } from '../key-usage.service';
import { CallerStep } from './caller.step';

const SECRET = `svc_live_${'a'.repeat(24)}`;
const PUBLISHABLE = `svc_pub_live_${'b'.repeat(24)}`;
const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyXzEifQ.c2ln';
const project = projectRef();
const otherProject = projectRef({ id: 'prj_2', accountId: 'acc_2' });

function keyOf(type: 'secret' | 'publishable', revoked = false): AuthenticatedKey {
  return { id: `key_${type}`, type, revoked, project } as unknown as AuthenticatedKey;
}

function setUp(options: { cached?: Record<string, AuthenticatedKey | null>; stored?: Record<string, AuthenticatedKey> } = {}) {
  const calls = { lookups: [] as string[], failures: [] as string[], touched: [] as string[] };
  const apiKeys = {
    cachedKey: (token: string) => options.cached?.[token],
    authenticate: (token: string) => {
      calls.lookups.push(token);
      return Promise.resolve(options.stored?.[token] ?? null);
    },
  } as unknown as ApiKeysService;
  const dashboardJwt = { authenticate: () => Promise.resolve({ subject: 'user_1', email: 'ada@example.com' }) } as unknown as DashboardJwt;
  const accounts = {
    findBySubject: (subject: string) => Promise.resolve(subject === 'user_1' ? { id: 'acc_1' } : null),
  } as unknown as AccountsService;
  const projects = {
    findById: (id: string) => Promise.resolve([project, otherProject].find((candidate) => candidate.id === id) ?? null),
  } as unknown as ProjectsService;
  const keyGuesses = {
    recordFailure: (address: string) => {
      calls.failures.push(address);
      return Promise.resolve();
    },
  } as unknown as KeyGuessLimiter;
  const keyUsage = { touch: (id: string) => calls.touched.push(id) } as unknown as KeyUsageRecorder;
  return { step: new CallerStep(apiKeys, dashboardJwt, accounts, projects, keyGuesses, keyUsage), calls };
}

async function refusal(run: () => Promise<void> | void): Promise<{ code: string; param?: string; message: string }> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('the step let the request through');
}

describe('CallerStep', () => {
  it('admits anyone on a public route, without an await', () => {
    const exchange = fakeExchange();
    const context = policyContext(exchange, policyOf('none'));
    expect(setUp().step.run(context)).toBeUndefined();
    expect(context.caller).toEqual({ kind: 'none' });
    expect(context.project).toBeNull();
  });

  it('answers a cached secret key synchronously, names its project and marks the answer no-store', () => {
    const { step, calls } = setUp({ cached: { [SECRET]: keyOf('secret') } });
    const exchange = fakeExchange({ headers: { authorization: `Bearer ${SECRET}` } });
    const context = policyContext(exchange, policyOf('secret'));
    expect(step.run(context)).toBeUndefined();
    expect(context.caller).toEqual({ kind: 'secret_key', project, keyId: 'key_secret' });
    expect(context.project).toBe(project);
    expect(requestProjectOf(exchange.req)).toBe('prj_1');
    expect(exchange.headers).toEqual({ 'Cache-Control': 'no-store' });
    expect(calls).toEqual({ lookups: [], failures: [], touched: ['key_secret'] });
  });

  it('admits a publishable key on a publishable route, without no-store', () => {
    const { step } = setUp({ cached: { [PUBLISHABLE]: keyOf('publishable') } });
    const exchange = fakeExchange({ headers: { authorization: `bearer ${PUBLISHABLE}` } });
    const context = policyContext(exchange, policyOf('publishable'));
    expect(step.run(context)).toBeUndefined();
    expect(context.caller).toEqual({ kind: 'publishable_key', project, keyId: 'key_publishable' });
    expect(exchange.headers).toEqual({});
  });

  it.each([
    ['no Authorization header', 'secret', undefined, 'MISSING_AUTH'],
    ['a header that is not Bearer, on a key route', 'secret', `Basic ${SECRET}`, 'INVALID_API_KEY'],
    ['a header that is not Bearer, on a dashboard route', 'dashboard', `Token ${JWT}`, 'INVALID_CLERK_TOKEN'],
    ['an API key on a dashboard route', 'dashboard_account', `Bearer ${SECRET}`, 'WRONG_AUTH_TYPE'],
    ['a JWT on a key route', 'publishable', `Bearer ${JWT}`, 'WRONG_AUTH_TYPE'],
    ['a token of no known shape', 'secret', 'Bearer not-a-key', 'INVALID_API_KEY'],
  ] as const)('refuses %s before any lookup', async (_case, mode, authorization, code) => {
    const { step, calls } = setUp();
    const exchange = fakeExchange({ headers: authorization ? { authorization } : {} });
    expect(await refusal(() => step.run(policyContext(exchange, policyOf(mode))))).toMatchObject({ code, param: 'Authorization' });
    expect(calls.lookups).toEqual([]);
    expect(requestProjectOf(exchange.req)).toBeNull();
  });

  it('refuses a revoked key, and a publishable key on a secret route', async () => {
    const { step, calls } = setUp({ cached: { [SECRET]: keyOf('secret', true), [PUBLISHABLE]: keyOf('publishable') } });
    const revoked = fakeExchange({ headers: { authorization: `Bearer ${SECRET}` } });
    expect(await refusal(() => step.run(policyContext(revoked, policyOf('secret'))))).toEqual({
      code: 'REVOKED_API_KEY',
      param: 'Authorization',
      message: 'This API key was revoked.',
    });
    const publishable = fakeExchange({ headers: { authorization: `Bearer ${PUBLISHABLE}` } });
    expect(await refusal(() => step.run(policyContext(publishable, policyOf('secret'))))).toEqual({
      code: 'KEY_INSUFFICIENT_PERMISSIONS',
      param: 'Authorization',
      message: 'This endpoint needs a secret key.',
    });
    // The permission check comes after the key counted as used, as it always did.
    expect(calls.touched).toEqual(['key_publishable']);
  });

  it('looks up a key the cache does not hold, and admits it once found', async () => {
    const { step, calls } = setUp({ stored: { [SECRET]: keyOf('secret') } });
    const exchange = fakeExchange({ headers: { authorization: `Bearer ${SECRET}` } });
    const context = policyContext(exchange, policyOf('secret'));
    const pending = step.run(context);
    expect(pending).toBeInstanceOf(Promise);
    await pending;
    expect(context.caller).toMatchObject({ kind: 'secret_key', keyId: 'key_secret' });
    expect(exchange.headers['Cache-Control']).toBe('no-store');
    expect(calls).toEqual({ lookups: [SECRET], failures: [], touched: ['key_secret'] });
  });

  it('counts an unknown key against the address; a key cached as unknown is not looked up again', async () => {
    const { step, calls } = setUp({ cached: { [PUBLISHABLE]: null } });
    const unknown = fakeExchange({ headers: { authorization: `Bearer ${SECRET}` }, ip: '198.51.100.7' });
    expect(await refusal(() => step.run(policyContext(unknown, policyOf('secret'))))).toMatchObject({ code: 'INVALID_API_KEY' });
    const known = fakeExchange({ headers: { authorization: `Bearer ${PUBLISHABLE}` }, ip: '::ffff:198.51.100.8' });
    expect(await refusal(() => step.run(policyContext(known, policyOf('publishable'))))).toMatchObject({ code: 'INVALID_API_KEY' });
    expect(calls.lookups).toEqual([SECRET]);
    expect(calls.failures).toEqual(['198.51.100.7', '198.51.100.8']);
  });

  it('admits a dashboard user by mode: signed in, account, account and project', async () => {
    const { step } = setUp();
    const authorization = `Bearer ${JWT}`;
    const user = { subject: 'user_1', email: 'ada@example.com' };

    const signedIn = policyContext(fakeExchange({ headers: { authorization } }), policyOf('signed_in'));
    await step.run(signedIn);
    expect(signedIn.caller).toEqual({ kind: 'signed_in', user });

    const account = policyContext(fakeExchange({ headers: { authorization } }), policyOf('dashboard_account'));
    await step.run(account);
    expect(account.caller).toEqual({ kind: 'dashboard_account', user, accountId: 'acc_1' });
    expect(account.project).toBeNull();

    const exchange = fakeExchange({ headers: { authorization, 'x-service-project': 'prj_1' } });
    const withProject = policyContext(exchange, policyOf('dashboard'));
    await step.run(withProject);
    expect(withProject.caller).toEqual({ kind: 'dashboard_project', user, accountId: 'acc_1', project });
    expect(requestProjectOf(exchange.req)).toBe('prj_1');
  });

  it.each([
    ['without X-Service-Project', {}, 'Name the project in the X-Service-Project header.'],
    ['naming another account’s project', { 'x-service-project': 'prj_2' }, "Project prj_2 is not one of this account's projects."],
    ['naming no project', { 'x-service-project': 'prj_404' }, "Project prj_404 is not one of this account's projects."],
  ])('refuses a dashboard project route %s', async (_case, headers, message) => {
    const exchange = fakeExchange({ headers: { authorization: `Bearer ${JWT}`, ...headers } });
    expect(await refusal(() => setUp().step.run(policyContext(exchange, policyOf('dashboard'))))).toEqual({
      code: 'PROJECT_NOT_FOUND',
      param: 'X-Service-Project',
      message,
    });
  });
});
