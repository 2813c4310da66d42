import { fakeExchange, policyContext, policyOf, projectRef } from '../../../test/support/policy-context';
import { planAllows } from '../../projects/plans';
import { RequiresFeature } from '../../projects/requires-feature';
import { PlanGateStep } from './plan-gate.step';

class Routes {
  @RequiresFeature('revenue')
  revenue(): void {}

  open(): void {}
}

const step = new PlanGateStep();

function contextFor(handler: object, plan: 'free' | 'indie' | null) {
  const context = policyContext(fakeExchange(), policyOf('dashboard'), handler);
  context.project = plan ? projectRef({ plan }) : null;
  return context;
}

describe('PlanGateStep', () => {
  it('refuses a project whose plan lacks the route’s feature with 403 PLAN_UPGRADE_REQUIRED', () => {
    expect(planAllows('free', 'revenue')).toBe(false);
    expect(() => step.run(contextFor(Routes.prototype.revenue, 'free'))).toThrow(
      expect.objectContaining({
        code: 'PLAN_UPGRADE_REQUIRED',
        status: 403,
        param: undefined,
        message: 'This needs the indie plan or higher; the project is on free.',
      }),
    );
  });

  it('lets through a plan with the feature, a route without one, and callers without a project', () => {
    expect(planAllows('indie', 'revenue')).toBe(true);
    expect(step.run(contextFor(Routes.prototype.revenue, 'indie'))).toBeUndefined();
    expect(step.run(contextFor(Routes.prototype.open, 'free'))).toBeUndefined();
    expect(step.run(contextFor(Routes.prototype.revenue, null))).toBeUndefined();
  });
});
