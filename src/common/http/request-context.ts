import type { Request } from 'express';
import { newId } from '../ids/ids';

/**
 * What the kernel keeps per request, on the request itself (one property, no per-request maps or
 * async-local storage): its id, and what the request log line should name.
 */
/** The answer about to be written: status, the headers a replay must repeat, and the exact body. */
export interface OutgoingAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Runs after the handler (or the failure) and before the answer is written; it may not change it. */
export type BeforeAnswerHook = (answer: OutgoingAnswer) => Promise<void>;

interface RequestState {
  requestId: string;
  projectId: string | null;
  /** Who is calling; auth/ owns its shape (auth/caller.ts). */
  auth: unknown;
  beforeAnswer: BeforeAnswerHook | null;
}

/** Every response carries its request id; error bodies repeat it as `request_id`. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

const STATE = Symbol('launchServiceRequestState');
type StatefulRequest = Request & { [STATE]?: RequestState };

function stateOf(req: Request): RequestState {
  const stateful = req as StatefulRequest;
  let state = stateful[STATE];
  if (!state) {
    state = { requestId: newId('req'), projectId: null, auth: null, beforeAnswer: null };
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

/**
 * Registers the request's before-answer hook (idempotency records the answer there). The envelope
 * adapter and the exception filter run it, so it sees exactly the body the client gets.
 */
export function setBeforeAnswer(req: Request, hook: BeforeAnswerHook): void {
  stateOf(req).beforeAnswer = hook;
}

/** The hook, removed from the request: it runs once, even when writing the answer fails after it. */
export function takeBeforeAnswer(req: Request): BeforeAnswerHook | null {
  const state = stateOf(req);
  const hook = state.beforeAnswer;
  state.beforeAnswer = null;
  return hook;
}
