import type { Request } from 'express';
import { newId } from '../ids/ids';

/** The answer about to be written: status, the headers a replay must repeat, and the exact body. */
export interface OutgoingAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Runs after the handler (or the failure) and before the answer is written; it may not change it. */
export type BeforeAnswerHook = (answer: OutgoingAnswer) => Promise<void>;

/**
 * What the kernel keeps per request: its id, when it started, what its log line names, who is
 * calling (auth/ owns that shape: auth/caller.ts) and the before-answer hook. One object, kept in
 * Express's per-request `res.locals` (a plain dictionary): no properties added to the request
 * itself, no per-request maps, no async-local storage.
 */
interface RequestState {
  readonly requestId: string;
  readonly startedAt: number;
  projectId: string | null;
  auth: unknown;
  beforeAnswer: BeforeAnswerHook | null;
}

/** Every response carries its request id; error bodies repeat it as `request_id`. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

const STATE = Symbol('launchServiceRequestState');
type Locals = Record<symbol, RequestState | undefined>;

function stateOf(req: Request): RequestState {
  // A request that never reached Express's own setup (none today) still gets a state of its own.
  const res = (req.res ?? req) as { locals?: Locals };
  const locals = (res.locals ??= Object.create(null) as Locals);
  let state = locals[STATE];
  if (!state) {
    state = { requestId: newId('req'), startedAt: performance.now(), projectId: null, auth: null, beforeAnswer: null };
    locals[STATE] = state;
  }
  return state;
}

/** The request id is created on first use, so even errors raised before routing carry one. */
export function requestIdOf(req: Request): string {
  return stateOf(req).requestId;
}

/** Milliseconds since the request's state was created (by the first middleware). */
export function requestDurationMs(req: Request): number {
  return performance.now() - stateOf(req).startedAt;
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
