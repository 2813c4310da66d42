import { Injectable } from '@nestjs/common';
import { setAuthState } from '../caller';
import type { PolicyContext, PolicyStep } from './policy-step';

/**
 * Leaves the caller and the end user on the request for the handler (@CurrentCaller,
 * @CurrentProject, @CurrentEndUser). It comes after every check of who is calling, so a refused
 * request never carries a caller; the pass's context itself is the state, nothing is copied.
 */
@Injectable()
export class AuthStateStep implements PolicyStep {
  run(context: PolicyContext): void {
    setAuthState(context.req, context);
  }
}
