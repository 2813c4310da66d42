import { fakeExchange, policyContext, policyOf, projectRef } from '../../../test/support/policy-context';
import type { IdempotencyClaims } from '../../idempotency/idempotency-claims.service';
import { Idempotent } from '../../idempotency/idempotent.decorator';
import type { Caller } from '../caller';
import { IdempotencyStep } from './idempotency.step';

class Routes {
  @Idempotent()
  create(): void {}

  list(): void {}
}

function setUp() {
  const claims: Array<{ scope: string | null; handler: object }> = [];
  const fake = {
    claim: (_req: unknown, scope: string | null, handler: object) => {
      claims.push({ scope, handler });
      return Promise.resolve();
    },
  } as unknown as IdempotencyClaims;
  return { step: new IdempotencyStep(fake), claims };
}

const project = projectRef();

describe('IdempotencyStep', () => {
  it.each([
    ['an API key: the key', { kind: 'secret_key', project, keyId: 'key_1' }, 'key_1'],
    [
      'a dashboard account: the account',
      { kind: 'dashboard_project', user: { subject: 's', email: null }, accountId: 'acc_1', project },
      'acc_1',
    ],
    ['nobody: nothing (keys are ignored)', { kind: 'none' }, null],
  ] as Array<[string, Caller, string | null]>)('claims the key on an @Idempotent() route, scoped to %s', async (_case, caller, scope) => {
    const { step, claims } = setUp();
    const context = policyContext(fakeExchange(), policyOf('secret'), Routes.prototype.create);
    context.caller = caller;
    await step.run(context);
    expect(claims).toEqual([{ scope, handler: Routes.prototype.create }]);
  });

  it('passes other routes without a claim or an await', () => {
    const { step, claims } = setUp();
    const context = policyContext(fakeExchange({ headers: { 'idempotency-key': 'k1' } }), policyOf('secret'), Routes.prototype.list);
    expect(step.run(context)).toBeUndefined();
    expect(claims).toEqual([]);
  });
});
