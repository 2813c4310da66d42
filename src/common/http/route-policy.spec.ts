import { Auth, ROUTE_POLICY, RoutePolicy, routePolicyOf } from './route-policy';

function policyOf(decorator: MethodDecorator): RoutePolicy | null {
  class Probe {
    handler(): void {}
  }
  const descriptor = Object.getOwnPropertyDescriptor(Probe.prototype, 'handler') as PropertyDescriptor;
  decorator(Probe.prototype, 'handler', descriptor);
  return routePolicyOf(descriptor.value as object);
}

describe('route policy', () => {
  it('makes publishable routes and `none` routes marked browser into browser routes', () => {
    expect(policyOf(Auth('publishable'))).toEqual({ mode: 'publishable', browser: true, endUser: null });
    expect(policyOf(Auth('none', { browser: true }))).toEqual({ mode: 'none', browser: true, endUser: null });
    expect(policyOf(Auth('secret'))).toEqual({ mode: 'secret', browser: false, endUser: null });
  });

  it('records the end-user rule, required unless said optional', () => {
    expect(policyOf(Auth('publishable', { userHash: 'required' }))?.endUser).toEqual({ userHash: 'required', optional: false });
    expect(policyOf(Auth('publishable', { userHash: 'unless_legacy', endUser: 'optional' }))?.endUser).toEqual({
      userHash: 'unless_legacy',
      optional: true,
    });
  });

  it('refuses end users on routes that are not publishable, and endUser without a hash rule', () => {
    expect(() => Auth('secret', { userHash: 'required' })).toThrow(/only meaningful on publishable routes/);
    expect(() => Auth('publishable', { endUser: 'optional' })).toThrow(/needs a userHash rule/);
  });

  it('reads nothing from a handler without a policy', () => {
    const handler = () => undefined;
    expect(routePolicyOf(handler)).toBeNull();
    expect(Reflect.getMetadata(ROUTE_POLICY, handler)).toBeUndefined();
  });
});
