import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { StoredResponse } from '../common/http/error-response';
import { newId } from '../common/ids/ids';
import { IdempotencyStore } from '../idempotency/idempotency-store.service';
import { requestFingerprint } from '../idempotency/idempotency-key';
import { answerFromRecord, carryIdempotentCall, IdempotentCall } from '../idempotency/idempotent-call';
import { PLATFORM_LIMITS } from '../projects/plans';
import type { ToolArgs, ToolCaller } from './tool-kit';

const RETENTION_MS = PLATFORM_LIMITS.idempotencyRetentionHours * 3_600_000;

// An IdempotentCall reads the answer's extra headers off the HTTP response; a tool call has none.
const NO_RESPONSE_HEADERS = { getHeader: () => undefined } as unknown as Response;

/**
 * `idempotency_key` of the create tools, on the REST Idempotency-Key store: the same scope (the
 * API key), retention and conflict rules, and the same in-transaction claim (IdempotentCall, carried
 * by the tool's input as a REST body's DTO carries it), so a retried tool call answers the first
 * call's result and never acts twice. The fingerprint is the tool's name and its arguments, so the
 * same key sent to REST and to a tool is a conflict.
 */
@Injectable()
export class McpIdempotency {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
  ) {}

  /**
   * `work` hands `args.input` to the service, which finds the claim on it (`idempotently`,
   * idempotent-call.ts). The kept answer is sealed when the tool's input says its answer shows a
   * secret (`args.secretInAnswer`, as the tool's REST route's `@Idempotent` says).
   */
  async run<T>(caller: ToolCaller, tool: string, args: ToolArgs, work: () => Promise<T>): Promise<T | unknown> {
    const key = args.idempotencyKey;
    if (key === null) return work();
    const scope = caller.idempotencyScope;
    const requestHash = requestFingerprint('MCP', tool, args.raw);
    const receivedAt = this.clock.now();
    const stored = await this.store.find(scope, key, receivedAt);
    if (stored) return replayed(answerFromRecord(stored, requestHash));
    const call = new IdempotentCall(this.store, {
      scope,
      key,
      projectId: caller.project.id,
      requestHash,
      receivedAt,
      expiresAt: new Date(receivedAt.getTime() + RETENTION_MS),
      requestId: newId('req'),
      status: 201,
      res: NO_RESPONSE_HEADERS,
      etag: null,
      delayAfterCommitMs: 0,
      sealed: args.secretInAnswer,
    });
    carryIdempotentCall(args.input, call);
    try {
      return await work();
    } catch (error) {
      if (error instanceof StoredResponse) return replayed(error);
      throw error;
    }
  }
}

/** The first call's `data`, from its recorded envelope; a different body with the key is IDEMPOTENCY_CONFLICT. */
function replayed(answer: StoredResponse | ApiError): unknown {
  if (answer instanceof ApiError) throw new ApiError(answer.code, answer.message, { param: 'idempotency_key' });
  return (JSON.parse(answer.answer.body) as { data: unknown }).data;
}
