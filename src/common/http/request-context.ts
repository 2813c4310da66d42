import type { Request } from 'express';
import { newId } from '../ids/ids';
import type { ProjectRef } from '../../projects/project-ref';

export type CredentialKind = 'secret_key' | 'publishable_key' | 'dashboard' | 'none';

/** Who is calling, as established by the auth guard. */
export interface Caller {
  readonly kind: CredentialKind;
  readonly project: ProjectRef | null;
  /** The API key id, or the account id for dashboard calls: what Idempotency-Key is scoped to. */
  readonly credentialId: string | null;
  readonly accountId: string | null;
  readonly subject: string | null;
  readonly email: string | null;
}

export const ANONYMOUS_CALLER: Caller = {
  kind: 'none',
  project: null,
  credentialId: null,
  accountId: null,
  subject: null,
  email: null,
};

interface RequestState {
  requestId: string;
  caller: Caller;
}

const STATE = Symbol('launchServiceRequestState');
type StatefulRequest = Request & { [STATE]?: RequestState };

function stateOf(req: Request): RequestState {
  const stateful = req as StatefulRequest;
  stateful[STATE] ??= { requestId: newId('req'), caller: ANONYMOUS_CALLER };
  return stateful[STATE];
}

/** The request id is created on first use, so even errors raised before routing carry one. */
export function requestIdOf(req: Request): string {
  return stateOf(req).requestId;
}

export function callerOf(req: Request): Caller {
  return stateOf(req).caller;
}

export function setCaller(req: Request, caller: Caller): void {
  stateOf(req).caller = caller;
}
