import { fakeExchange, policyContext, policyOf, projectRef } from '../../../test/support/policy-context';
import { callerOf, endUserOf } from '../caller';
import { AuthStateStep } from './auth-state.step';

describe('AuthStateStep', () => {
  it('leaves the caller and the end user on the request only when it runs', () => {
    const exchange = fakeExchange();
    const context = policyContext(exchange, policyOf('publishable', { endUser: { userHash: 'required', optional: false } }));
    const caller = { kind: 'publishable_key', project: projectRef(), keyId: 'key_1' } as const;
    context.caller = caller;
    context.endUser = { userId: 'u_1', verified: true };
    expect(callerOf(exchange.req)).toEqual({ kind: 'none' });
    expect(endUserOf(exchange.req)).toBeNull();

    expect(new AuthStateStep().run(context)).toBeUndefined();
    expect(callerOf(exchange.req)).toBe(caller);
    expect(endUserOf(exchange.req)).toEqual({ userId: 'u_1', verified: true });
  });
});
