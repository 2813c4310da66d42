import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { routePolicyOf } from '../common/http/route-policy';
import { AuthStateStep } from './policy-steps/auth-state.step';
import { BrowserLimitStep } from './policy-steps/browser-limit.step';
import { CallerStep } from './policy-steps/caller.step';
import { IdempotencyStep } from './policy-steps/idempotency.step';
import { PlanGateStep } from './policy-steps/plan-gate.step';
import { PolicyContext, PolicyStep } from './policy-steps/policy-step';
import { UserHashStep } from './policy-steps/user-hash.step';

/**
 * The one global guard: every route's policy (@Auth, common/http/route-policy.ts) in one pass of
 * small steps (policy-steps/), each refusing with its own error. A route without a policy is
 * refused, so nothing is public by accident. The order is the order of precedence when a request
 * fails several checks:
 *
 * 1. caller (API key, dashboard JWT or none): everything after depends on who is calling. Marks
 *    secret-key answers `no-store` at once, so every later refusal carries it too.
 * 2. browser limit (per IP): before the plan gate and the user hash, so requests those refuse
 *    still count against the address and carry the X-RateLimit headers. A bad key is refused
 *    before it (step 1) and never counts here.
 * 3. plan gate (@RequiresFeature): no I/O, so a call its plan refuses reads no signing secret.
 * 4. user hash (user_id + user_hash, on routes that name an end user).
 * 5. auth state: the caller and end user left for the handler, only once every check passed.
 * 6. Idempotency-Key claim: needs the caller (the key's scope); a replay answers only a
 *    request that passed every check.
 *
 * The bell's hourly per-person read limit is not a step: it counts only reads that passed
 * validation and records the person as seen (notifications/bell/bell-reads-limit.service.ts), so it
 * stays in the service, after the ValidationPipe.
 *
 * This runs on every API request: a step with nothing to wait for returns nothing and costs no
 * await, and the pass allocates one context object, which is also the request's auth state.
 */
@Injectable()
export class RoutePolicyGuard implements CanActivate {
  private readonly steps: readonly PolicyStep[];

  constructor(
    caller: CallerStep,
    browserLimit: BrowserLimitStep,
    planGate: PlanGateStep,
    userHash: UserHashStep,
    authState: AuthStateStep,
    idempotency: IdempotencyStep,
  ) {
    this.steps = [caller, browserLimit, planGate, userHash, authState, idempotency];
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const handler = context.getHandler();
    const policy = routePolicyOf(handler);
    if (!policy) throw new Error(`Route ${context.getClass().name}.${handler.name} has no @Auth policy`);
    const http = context.switchToHttp();
    const pass = new PolicyContext(context, http.getRequest<Request>(), http.getResponse<Response>(), handler, policy);
    const steps = this.steps;
    for (let index = 0; index < steps.length; index += 1) {
      const pending = steps[index].run(pass);
      if (pending) await pending;
    }
    return true;
  }
}
