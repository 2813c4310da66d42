import type { Request } from 'express';
import { newId } from '../ids/ids';

/**
 * What the kernel keeps per request, on the request itself (one property, no per-request maps or
 * async-local storage): its id, and what the request log line should name.
 */
interface RequestState {
  requestId: string;
  projectId: string | null;
  /** Who is calling; auth/ owns its shape (auth/caller.ts). */
  auth: unknown;
}

/** Every response carries its request id; error bodies repeat it as `request_id`. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

const STATE = Symbol('launchServiceRequestState');
type StatefulRequest = Request & { [STATE]?: RequestState };

function stateOf(req: Request): RequestState {
  const stateful = req as StatefulRequest;
  let state = stateful[STATE];
  if (!state) {
    state = { requestId: newId('req'), projectId: null, auth: null };
    stateful[STATE] = state;
  }
  return state;
}

/** The request id is created on first use, so even errors raised before routing carry one. */
export function requestIdOf(req: Request): string {
  return stateOf(req).requestId;
}

/** Names the project in the request's log line (the auth guard calls it). */
export function setRequestProject(req: Request, projectId: string): void {
  stateOf(req).projectId = projectId;
}

export function requestProjectOf(req: Request): string | null {
  return stateOf(req).projectId;
}

/** The slot the auth guard fills; read back through auth/caller.ts. */
export function setRequestAuth(req: Request, auth: unknown): void {
  stateOf(req).auth = auth;
}

export function requestAuthOf(req: Request): unknown {
  return stateOf(req).auth;
}
