import type { ExecutionContext } from '@nestjs/common';
import { fakeExchange } from '../../test/support/policy-context';
import { ApiError } from '../common/errors/api-error';
import { Auth } from '../common/http/route-policy';
import type { PolicyContext, PolicyStep } from './policy-steps/policy-step';
import { RoutePolicyGuard } from './route-policy.guard';

class Routes {
  @Auth('secret')
  guarded(): void {}

  unguarded(): void {}
}

function executionOf(handler: () => void, type = 'http'): ExecutionContext {
  const { req, res } = fakeExchange();
  return {
    getType: () => type,
    getHandler: () => handler,
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ExecutionContext;
}

/** Six steps that log when they run and when they finish; `async` ones finish a tick later, `refuse` throws. */
function steps(log: string[], behaviour: Record<number, 'async' | 'refuse'> = {}): PolicyStep[] {
  return [0, 1, 2, 3, 4, 5].map((index) => ({
    run(context: PolicyContext): Promise<void> | void {
      log.push(`run ${index} ${context.policy.mode}`);
      if (behaviour[index] === 'refuse') throw new ApiError('INVALID_API_KEY', `step ${index}`);
      if (behaviour[index] === 'async') return Promise.resolve().then(() => void log.push(`done ${index}`));
    },
  }));
}

function guardOf(list: PolicyStep[]): RoutePolicyGuard {
  const [caller, browser, plan, userHash, state, idempotency] = list;
  return new RoutePolicyGuard(caller as never, browser as never, plan as never, userHash as never, state as never, idempotency as never);
}

describe('RoutePolicyGuard', () => {
  it('runs the steps in order, one context for all, waiting only for the steps that return a promise', async () => {
    const log: string[] = [];
    const seen = new Set<PolicyContext>();
    const list = steps(log, { 1: 'async', 3: 'async' }).map((step) => ({
      run: (context: PolicyContext) => (seen.add(context), step.run(context)),
    }));
    await expect(guardOf(list).canActivate(executionOf(Routes.prototype.guarded))).resolves.toBe(true);
    expect(log).toEqual([
      'run 0 secret',
      'run 1 secret',
      'done 1',
      'run 2 secret',
      'run 3 secret',
      'done 3',
      'run 4 secret',
      'run 5 secret',
    ]);
    expect(seen.size).toBe(1);
  });

  it('stops at the first refusal: no later step runs', async () => {
    const log: string[] = [];
    await expect(guardOf(steps(log, { 2: 'refuse' })).canActivate(executionOf(Routes.prototype.guarded))).rejects.toMatchObject({
      code: 'INVALID_API_KEY',
      message: 'step 2',
    });
    expect(log).toEqual(['run 0 secret', 'run 1 secret', 'run 2 secret']);
  });

  it('refuses a route without an @Auth policy, and leaves other kinds of calls alone', async () => {
    const log: string[] = [];
    const guard = guardOf(steps(log));
    await expect(guard.canActivate(executionOf(Routes.prototype.unguarded))).rejects.toThrow('Route Routes.unguarded has no @Auth policy');
    await expect(guard.canActivate(executionOf(Routes.prototype.unguarded, 'rpc'))).resolves.toBe(true);
    expect(log).toEqual([]);
  });
});
