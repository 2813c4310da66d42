import type { ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { RoutePolicy } from '../../common/http/route-policy';
import type { ProjectRef } from '../../projects/project-ref';
import { ANONYMOUS, type AuthState, type Caller, type EndUser } from '../caller';

/**
 * One request's pass through the route-policy guard: what the route declares, and what the steps
 * before have established. One object per request, and the same object is kept as the request's
 * auth state (caller.ts reads `caller` and `endUser` off it), so the pass allocates nothing the
 * guard did not allocate before it was split into steps.
 */
export class PolicyContext implements AuthState {
  caller: Caller = ANONYMOUS;
  /** The caller's project, once the caller step has run (null for callers without one). */
  project: ProjectRef | null = null;
  endUser: EndUser | null = null;

  constructor(
    /** Nest's context of the call: the dashboard JWT check hands it to Passport. */
    readonly execution: ExecutionContext,
    readonly req: Request,
    readonly res: Response,
    readonly handler: object,
    readonly policy: RoutePolicy,
  ) {}
}

/**
 * A step of the route-policy guard. A step that has nothing to wait for returns nothing, and the
 * guard then moves on without an await: most requests pass every step synchronously but the ones
 * that go to Redis or the database. A step refuses by throwing an ApiError.
 */
export interface PolicyStep {
  run(context: PolicyContext): Promise<void> | void;
}
