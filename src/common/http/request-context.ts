import type { Request, Response } from 'express';
import { newId } from '../ids/ids';

/** An answer as it goes on the wire: status, the headers a replay must repeat, and the exact body text. */
export interface WireAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Set on a request that carries an Idempotency-Key (idempotency/ fills it). Once the effect's
 * transaction has committed with its recorded answer, that answer is what the client gets, byte
 * for byte, whatever happens after the commit (see envelope.ts and exception.filter.ts).
 */
export interface CommittedAnswerSource {
  committedAnswer(): WireAnswer | null;
}

/**
 * What the kernel keeps per request: its id, when it started, what its log line names, who is
 * calling (auth/ owns that shape: auth/caller.ts) and, on idempotent requests, the answer source. One object, kept in
 * Express's per-request `res.locals` (a plain dictionary): no properties added to the request
 * itself, no per-request maps, no async-local storage.
 */
interface RequestState {
  readonly requestId: string;
  readonly startedAt: number;
  projectId: string | null;
  auth: unknown;
  answerSource: CommittedAnswerSource | null;
  /** Fields a surface adds to the request's log line (the MCP endpoint: `via`, `mcp_tool`). */
  logFields: Record<string, string> | null;
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
    state = { requestId: newId('req'), startedAt: performance.now(), projectId: null, auth: null, answerSource: null, logFields: null };
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

/** Adds fields to the request's log line (request-log.middleware.ts writes them after its own). */
export function addRequestLogFields(req: Request, fields: Record<string, string>): void {
  const state = stateOf(req);
  state.logFields = { ...state.logFields, ...fields };
}

export function requestLogFieldsOf(req: Request): Record<string, string> | null {
  return stateOf(req).logFields;
}

/** The slot the auth guard fills; read back through auth/caller.ts. */
export function setRequestAuth(req: Request, auth: unknown): void {
  stateOf(req).auth = auth;
}

export function requestAuthOf(req: Request): unknown {
  return stateOf(req).auth;
}

/** Called by the idempotency step of the auth guard, only on requests with an Idempotency-Key. */
export function setCommittedAnswerSource(req: Request, source: CommittedAnswerSource): void {
  stateOf(req).answerSource = source;
}

/**
 * A service receives a request's input (its body DTO), not the request. Where the input must carry
 * something of the request to the service's transaction (the Idempotency-Key claim), it is bound to
 * the input object: the claim to the request body, then by the ValidationPipe to the DTO it builds
 * from that body. Looked up by object identity, so an input nobody bound (every request without a
 * key, a CLI or job call) carries nothing and costs one failed lookup.
 */
const inputAnswerSources = new WeakMap<object, CommittedAnswerSource>();

/**
 * Binds `source` to the request's body, creating an empty one for a request sent without a body
 * (validation reads a missing body as an empty object too, so nothing else can tell).
 */
export function bindRequestBody(req: Request, source: CommittedAnswerSource): void {
  if (req.body === undefined || req.body === null) req.body = {};
  if (typeof req.body === 'object') bindInput(req.body as object, source);
}

/** Binds `source` to an input handed to a service outside HTTP (an MCP tool call's arguments). */
export function bindInput(input: object, source: CommittedAnswerSource): void {
  inputAnswerSources.set(input, source);
}

/** What was bound to `input`, if anything. */
export function answerSourceOfInput(input: unknown): CommittedAnswerSource | null {
  return (typeof input === 'object' && input !== null && inputAnswerSources.get(input)) || null;
}

/** The ValidationPipe's part: the DTO it built from a body carries what was bound to that body. */
export function carryInputBinding(from: unknown, to: unknown): void {
  const source = answerSourceOfInput(from);
  if (source && typeof to === 'object' && to !== null) inputAnswerSources.set(to, source);
}

/** The answer committed with the request's effect, if any: the envelope adapter and the filter write it. */
export function committedAnswerOf(req: Request): WireAnswer | null {
  const source = stateOf(req).answerSource;
  return source ? source.committedAnswer() : null;
}

/** Writes a recorded answer exactly: the stored body text, its status and headers (ETag included). */
export function writeWireAnswer(res: Response, answer: WireAnswer, extraHeaders: Record<string, string> = {}): Response {
  // With Content-Type and ETag already set, Express's send() neither changes the type nor
  // recomputes the tag: the bytes and headers are the recorded ones.
  return res
    .status(answer.status)
    .set({ ...answer.headers, ...extraHeaders })
    .send(answer.body);
}
