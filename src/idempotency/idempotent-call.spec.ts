import type { Response } from 'express';
import type { EntityManager } from 'typeorm';
import { carryIdempotentCall, idempotently, IdempotentCall, idempotentCallOf } from './idempotent-call';
import type { IdempotencyStore } from './idempotency-store.service';

const em = {} as EntityManager;
const RECEIVED = new Date('2026-06-01T12:00:00Z');

function callWith(log: string[], locked = true): IdempotentCall {
  const store = {
    tryLock: () => (log.push('lock'), Promise.resolve(locked)),
    find: () => (log.push('find'), Promise.resolve(null)),
    save: (_em: unknown, record: { answer: { status: number; body: string } }) => (
      log.push(`save ${record.answer.status} ${record.answer.body}`),
      Promise.resolve()
    ),
  } as unknown as IdempotencyStore;
  return new IdempotentCall(store, {
    scope: 'key_1',
    key: 'k1',
    projectId: 'prj_1',
    requestHash: 'h',
    receivedAt: RECEIVED,
    expiresAt: new Date(RECEIVED.getTime() + 86_400_000),
    requestId: 'req_1',
    status: 201,
    res: { getHeader: () => undefined } as unknown as Response,
    etag: null,
    delayAfterCommitMs: 0,
    sealed: false,
  });
}

describe('idempotently', () => {
  it('runs the effect under the claim its input carries: lock, effect, answer recorded in that order', async () => {
    const log: string[] = [];
    const input = { name: 'a' };
    const call = callWith(log);
    carryIdempotentCall(input, call);
    expect(idempotentCallOf(input)).toBe(call);
    const result = await idempotently(em, input, () => (log.push('effect'), Promise.resolve({ id: 'thing_1' })));
    expect(result).toEqual({ id: 'thing_1' });
    expect(log).toEqual(['lock', 'find', 'effect', 'save 201 {"data":{"id":"thing_1"},"error":null}']);
  });

  it('refuses while another request holds the key, before the effect', async () => {
    const log: string[] = [];
    const input = {};
    carryIdempotentCall(input, callWith(log, false));
    await expect(idempotently(em, input, () => (log.push('effect'), Promise.resolve(1)))).rejects.toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
      headers: { 'Retry-After': '1' },
    });
    expect(log).toEqual(['lock']);
  });

  it('runs the effect alone for an input that carries no claim (no key sent, a CLI or job call)', async () => {
    const input = { name: 'a' };
    expect(idempotentCallOf(input)).toBeNull();
    expect(idempotentCallOf(undefined)).toBeNull();
    await expect(idempotently(em, input, () => Promise.resolve('done'))).resolves.toBe('done');
  });
});
