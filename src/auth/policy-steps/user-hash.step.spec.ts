import { fakeExchange, policyContext, policyOf, projectRef } from '../../../test/support/policy-context';
import type { Clock } from '../../common/clock/clock';
import type { UserHashRule } from '../../common/http/route-policy';
import type { Caller } from '../caller';
import { EndUserVerifier, type SigningSecretSet } from '../end-user-verifier.service';
import { userHashOf } from '../user-hash';
import { UserHashStep } from './user-hash.step';

const NOW = new Date('2026-06-01T12:00:00Z');
const SECRET = 'whsec_current_secret';
const OLD_SECRET = 'whsec_previous_secret';

function setUp(secrets: SigningSecretSet = { current: SECRET, previous: null }) {
  const reads: string[] = [];
  const verifier = new EndUserVerifier({ now: () => NOW } as Clock);
  verifier.useSigningSecrets((projectId) => {
    reads.push(projectId);
    return Promise.resolve(secrets);
  });
  return { step: new UserHashStep(verifier), reads };
}

interface Call {
  query?: object;
  body?: unknown;
  headers?: Record<string, string>;
  rule?: UserHashRule;
  optional?: boolean;
  caller?: 'secret_key' | 'publishable_key';
  requireUserHash?: boolean;
}

function contextOf(call: Call) {
  const project = projectRef({ settings: { require_user_hash: call.requireUserHash ?? true } as never });
  const endUser = { userHash: call.rule ?? 'required', optional: call.optional ?? false };
  const context = policyContext(
    fakeExchange({ query: call.query, body: call.body, headers: call.headers }),
    policyOf('publishable', { endUser }),
  );
  context.caller = { kind: call.caller ?? 'publishable_key', project, keyId: 'key_1' } as Caller;
  context.project = project;
  return context;
}

describe('UserHashStep', () => {
  it('accepts a user_id with its hash, from the query, the body or the header', async () => {
    const hash = userHashOf('u_1', SECRET);
    for (const call of [
      { query: { user_id: 'u_1', user_hash: hash } },
      { body: { user_id: 'u_1', user_hash: hash } },
      { query: { user_id: 'u_1' }, headers: { 'x-service-user-hash': hash } },
    ]) {
      const { step, reads } = setUp();
      const context = contextOf(call);
      await step.run(context);
      expect(context.endUser).toEqual({ userId: 'u_1', verified: true });
      expect(reads).toEqual(['prj_1']);
    }
  });

  it('accepts the previous secret within its grace period, and not after it', async () => {
    const hash = userHashOf('u_1', OLD_SECRET);
    const inGrace = setUp({ current: SECRET, previous: { secret: OLD_SECRET, validUntil: new Date(NOW.getTime() + 1000) } });
    const context = contextOf({ query: { user_id: 'u_1', user_hash: hash } });
    await inGrace.step.run(context);
    expect(context.endUser).toEqual({ userId: 'u_1', verified: true });

    const expired = setUp({ current: SECRET, previous: { secret: OLD_SECRET, validUntil: NOW } });
    await expect(expired.step.run(contextOf({ query: { user_id: 'u_1', user_hash: hash } }))).rejects.toMatchObject({
      code: 'USER_HASH_INVALID',
      param: 'user_hash',
      message: 'user_hash does not match user_id.',
    });
  });

  it('decides without an await, and reads no secret, when there is no hash to check', () => {
    const secret = setUp();
    const server = contextOf({ query: { user_id: 'u_1' }, caller: 'secret_key' });
    expect(secret.step.run(server)).toBeUndefined();
    expect(server.endUser).toEqual({ userId: 'u_1', verified: true });

    const legacy = contextOf({ query: { user_id: 'u_1' }, rule: 'unless_legacy', requireUserHash: false });
    expect(secret.step.run(legacy)).toBeUndefined();
    expect(legacy.endUser).toEqual({ userId: 'u_1', verified: false });

    const anonymous = contextOf({ optional: true });
    expect(secret.step.run(anonymous)).toBeUndefined();
    expect(anonymous.endUser).toBeNull();
    expect(secret.reads).toEqual([]);
  });

  it('passes routes that name no end user', () => {
    const { step } = setUp();
    const context = policyContext(fakeExchange({ query: { user_id: 5 } }), policyOf('publishable'));
    expect(step.run(context)).toBeUndefined();
    expect(context.endUser).toBeNull();
  });

  it.each([
    ['no user_id', {}, 'VALIDATION_ERROR', 'user_id', 'user_id is required: the id of the signed-in person this call is for.'],
    [
      'a hash without user_id on an optional route',
      { optional: true, query: { user_hash: 'ab' } },
      'VALIDATION_ERROR',
      'user_id',
      'user_id is required: the id of the signed-in person this call is for.',
    ],
    ['a user_id that is not a string', { body: { user_id: 42 } }, 'VALIDATION_ERROR', 'user_id', 'user_id must be a string.'],
    ['an empty user_id', { query: { user_id: '' } }, 'VALIDATION_ERROR', 'user_id', 'user_id must be 1 to 256 characters.'],
    [
      'a user_id of 257 characters',
      { query: { user_id: 'u'.repeat(257) } },
      'VALIDATION_ERROR',
      'user_id',
      'user_id must be 1 to 256 characters.',
    ],
    [
      'a user_hash that is not a string',
      { query: { user_id: 'u_1', user_hash: ['a'] } },
      'VALIDATION_ERROR',
      'user_hash',
      'user_hash must be a string.',
    ],
    ['no hash on a required route', { query: { user_id: 'u_1' } }, 'USER_HASH_INVALID', 'user_hash', 'user_hash is required with user_id.'],
    [
      'no hash where the project requires one',
      { query: { user_id: 'u_1' }, rule: 'unless_legacy' },
      'USER_HASH_INVALID',
      'user_hash',
      'user_hash is required with user_id.',
    ],
  ] as Array<[string, Call, string, string, string]>)('refuses %s', async (_case, call, code, param, message) => {
    const { step, reads } = setUp();
    await expect(Promise.resolve().then(() => step.run(contextOf(call)))).rejects.toMatchObject({ code, param, message });
    expect(reads).toEqual([]);
  });

  it('refuses a wrong hash, and any hash while the project has no signing secret', async () => {
    const context = contextOf({ query: { user_id: 'u_1', user_hash: userHashOf('u_2', SECRET) } });
    await expect(setUp().step.run(context)).rejects.toMatchObject({
      code: 'USER_HASH_INVALID',
      message: 'user_hash does not match user_id.',
    });
    expect(context.endUser).toBeNull();

    const noSecret = setUp({ current: null, previous: null });
    await expect(noSecret.step.run(contextOf({ query: { user_id: 'u_1', user_hash: 'ab' } }))).rejects.toMatchObject({
      code: 'USER_HASH_INVALID',
      param: 'user_hash',
      message: 'This project has no notification signing secret yet.',
      remediation: 'Create one with POST /v1/notifications/signing-secret (secret key), then compute user_hash on your server.',
    });
  });
});
