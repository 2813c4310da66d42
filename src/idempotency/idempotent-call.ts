import type { Response } from 'express';
import { EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { StoredResponse } from '../common/http/error-response';
import { toSuccessEnvelope } from '../common/http/envelope';
import { WithStatus } from '../common/http/reply';
import { answerSourceOfInput, bindInput, CommittedAnswerSource, REQUEST_ID_HEADER, WireAnswer } from '../common/http/request-context';
import { JSON_CONTENT_TYPE } from '../common/fast-paths/json-writer';
import { afterCommit } from '../infra/database/database.service';
import { IDEMPOTENCY_HEADER } from './idempotency-key';
import { IdempotencyStore, StoredAnswer } from './idempotency-store.service';

/** Express's `etag fn` setting: how it tags a body it sends. */
export type EtagFunction = (body: Buffer, encoding?: BufferEncoding) => string | undefined;

interface IdempotentRequest {
  scope: string;
  key: string;
  /** The project the request acts on (null for account-wide requests): erasure finds answers by it. */
  projectId: string | null;
  requestHash: string;
  receivedAt: Date;
  expiresAt: Date;
  requestId: string;
  /** The route's success status (201 for a create, or its @HttpCode). */
  status: number;
  res: Response;
  etag: EtagFunction | null;
  /** Test hook (0 in production): holds the answer back after COMMIT, for crash tests. */
  delayAfterCommitMs: number;
  /** The answer shows a secret: its stored copy is sealed (IdempotencyStore). */
  sealed: boolean;
}

// Headers a handler may have set that belong to the answer itself (not to this delivery of it).
const ANSWER_HEADERS = ['Location', 'Cache-Control', 'Content-Location'];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The answer to a request whose key already has a committed answer: a replay, or a conflict. */
export function answerFromRecord(stored: StoredAnswer, requestHash: string): StoredResponse | ApiError {
  if (stored.requestHash !== requestHash) {
    return new ApiError('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key was already used with a different request body.', {
      param: IDEMPOTENCY_HEADER,
    });
  }
  return new StoredResponse(stored.answer, { 'Idempotent-Replayed': 'true' });
}

/**
 * One request that carries an Idempotency-Key, carried by its input to the service that runs its
 * effect. The service's transaction calls `begin` first and `complete` last (see `idempotently`):
 * - `begin` takes a transaction-scoped advisory lock on the key without waiting. Held: another
 *   request with this key is running → 409 IDEMPOTENCY_CONFLICT with Retry-After (as Stripe
 *   answers `idempotency_key_in_use`; nothing waits, so retries cannot pile up on pool connections).
 *   Taken: a record committed meanwhile is replayed, else the effect runs.
 * - `complete` writes the serialised answer into the record in the same transaction, so the
 *   effect and its answer commit together. After COMMIT that recorded answer is what the client
 *   gets (byte for byte, also if a later step fails), and a retry replays it.
 * A crash before COMMIT leaves nothing: the lock dies with the transaction, and a retry runs once.
 */
export class IdempotentCall implements CommittedAnswerSource {
  private committed: WireAnswer | null = null;
  /** Written into the record by this transaction; becomes `committed` once it commits. */
  private pending: WireAnswer | null = null;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly request: IdempotentRequest,
  ) {}

  committedAnswer(): WireAnswer | null {
    return this.committed;
  }

  async begin(em: EntityManager): Promise<void> {
    const { scope, key, requestHash, receivedAt } = this.request;
    if (!(await this.store.tryLock(em, scope, key))) {
      throw new ApiError('IDEMPOTENCY_CONFLICT', 'A request with this Idempotency-Key is still being processed; retry shortly.', {
        param: IDEMPOTENCY_HEADER,
        headers: { 'Retry-After': '1' },
      });
    }
    const stored = await this.store.find(scope, key, receivedAt, em);
    if (stored) throw answerFromRecord(stored, requestHash);
    this.pending = null;
    // Registered before the effect's own after-commit work (queue wake-ups), so the recorded answer
    // is the request's answer from the moment of COMMIT, even if that work fails or stalls.
    afterCommit(em, () => {
      this.committed = this.pending;
    });
  }

  async complete(em: EntityManager, result: unknown): Promise<void> {
    const answer = this.answerOf(result);
    const { scope, key, projectId, requestHash, receivedAt, expiresAt, delayAfterCommitMs, sealed } = this.request;
    await this.store.save(em, { scope, key, projectId, requestHash, answer, createdAt: receivedAt, expiresAt, sealed });
    this.pending = answer;
    if (delayAfterCommitMs > 0) afterCommit(em, () => sleep(delayAfterCommitMs));
  }

  /** The success envelope exactly as writeJson sends it (common/http/write-json.ts). */
  private answerOf(result: unknown): WireAnswer {
    const { res, requestId, etag } = this.request;
    // A handler that picks its status at run time (201 created, 200 dry run) records that status.
    const status = result instanceof WithStatus ? result.status : this.request.status;
    const body = JSON.stringify(toSuccessEnvelope(result));
    const headers: Record<string, string> = { 'Content-Type': JSON_CONTENT_TYPE, [REQUEST_ID_HEADER]: requestId };
    const tag = etag?.(Buffer.from(body, 'utf8'));
    if (tag) headers.ETag = tag;
    for (const name of ANSWER_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    return { status, headers, body };
  }
}

/** The Idempotency-Key claim `input` carries (a request's body DTO, an MCP tool's input), if any. */
export function idempotentCallOf(input: unknown): IdempotentCall | null {
  const source = answerSourceOfInput(input);
  return source instanceof IdempotentCall ? source : null;
}

/** Makes `input` carry `call` to the service that runs it, outside HTTP (an MCP tool call). */
export function carryIdempotentCall(input: object, call: IdempotentCall): void {
  bindInput(input, call);
}

/**
 * Runs a use case's effect inside its transaction under the Idempotency-Key its input carries, if
 * any: an input without one (no key sent, or a call from outside HTTP) costs one lookup. `input` is
 * the object the service received (the body DTO); `em` must come from `Database.transaction`, whose
 * after-commit hooks tell the call that its answer committed.
 */
export async function idempotently<T>(em: EntityManager, input: object, work: () => Promise<T>): Promise<T> {
  const call = idempotentCallOf(input);
  if (!call) return work();
  await call.begin(em);
  const result = await work();
  await call.complete(em, result);
  return result;
}
