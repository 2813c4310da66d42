import { fakeExchange } from '../../test/support/policy-context';
import type { Clock } from '../common/clock/clock';
import { StoredResponse } from '../common/http/error-response';
import { committedAnswerOf } from '../common/http/request-context';
import { createValidationPipe } from '../common/validation/validation.pipe';
import type { AppConfig } from '../config/app-config';
import { IdempotencyClaims } from './idempotency-claims.service';
import { requestFingerprint } from './idempotency-key';
import { IdempotentCall, idempotentCallOf } from './idempotent-call';
import type { IdempotencyStore, StoredAnswer } from './idempotency-store.service';
import { IsString } from 'class-validator';

const NOW = new Date('2026-06-01T12:00:00Z');

export class ThingDto {
  @IsString()
  name!: string;
}

function setUp(stored: StoredAnswer | null = null) {
  const finds: unknown[][] = [];
  const store = {
    find: (...args: unknown[]) => {
      finds.push(args);
      return Promise.resolve(stored);
    },
  } as unknown as IdempotencyStore;
  const claims = new IdempotencyClaims(store, { now: () => NOW } as Clock, {} as AppConfig);
  return { claims, finds };
}

const handler = () => undefined;

describe('IdempotencyClaims', () => {
  it('costs nothing without the header: no lookup, no await, nothing bound', () => {
    const { claims, finds } = setUp();
    const { req } = fakeExchange({ body: { name: 'a' } });
    expect(claims.claim(req, 'key_1', handler)).toBeUndefined();
    expect(finds).toEqual([]);
    expect(idempotentCallOf(req.body)).toBeNull();
  });

  it('refuses a malformed key with VALIDATION_ERROR on Idempotency-Key, even where keys are ignored', () => {
    const { claims } = setUp();
    const { req } = fakeExchange({ headers: { 'idempotency-key': 'k'.repeat(81) } });
    expect(() => claims.claim(req, null, handler)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', param: 'Idempotency-Key' }));
  });

  it('ignores a key when the caller has no scope for it', () => {
    const { claims, finds } = setUp();
    const { req } = fakeExchange({ headers: { 'idempotency-key': 'k1' }, body: { name: 'a' } });
    expect(claims.claim(req, null, handler)).toBeUndefined();
    expect(finds).toEqual([]);
  });

  it('binds a new claim to the body, which the ValidationPipe hands on to the DTO', async () => {
    const { claims, finds } = setUp();
    const { req } = fakeExchange({ headers: { 'idempotency-key': 'k1' }, body: { name: 'a' } });
    await claims.claim(req, 'key_1', handler);
    expect(finds).toEqual([['key_1', 'k1', NOW]]);
    const call = idempotentCallOf(req.body);
    expect(call).toBeInstanceOf(IdempotentCall);
    expect(committedAnswerOf(req)).toBeNull();

    const dto = await createValidationPipe().transform(req.body, { type: 'body', metatype: ThingDto, data: undefined });
    expect(dto).toBeInstanceOf(ThingDto);
    expect(dto).not.toBe(req.body);
    expect(idempotentCallOf(dto)).toBe(call);
    // A query DTO built from the same request carries nothing.
    const query = await createValidationPipe().transform(req.body, { type: 'query', metatype: ThingDto, data: undefined });
    expect(idempotentCallOf(query)).toBeNull();
  });

  it('gives a claimed request without a body an empty one to carry the claim', async () => {
    const { claims } = setUp();
    const { req } = fakeExchange({ headers: { 'idempotency-key': 'k1' } });
    await claims.claim(req, 'key_1', handler);
    expect(req.body).toEqual({});
    expect(idempotentCallOf(req.body)).toBeInstanceOf(IdempotentCall);
  });

  it('replays a committed answer for the same body, and refuses a different body with IDEMPOTENCY_CONFLICT', async () => {
    const answer = { status: 201, headers: { 'Content-Type': 'application/json' }, body: '{"data":{"id":"x"},"error":null}' };
    const sameHash = requestFingerprint('POST', '/v1/things', { name: 'a' });
    const replay = fakeExchange({ headers: { 'idempotency-key': 'k1' }, body: { name: 'a' } });
    const replayed = await setUp({ requestHash: sameHash, answer })
      .claims.claim(replay.req, 'key_1', handler)
      ?.catch((error: unknown) => error);
    expect(replayed).toBeInstanceOf(StoredResponse);
    expect((replayed as StoredResponse).answer).toEqual(answer);
    expect(idempotentCallOf(replay.req.body)).toBeNull();

    const conflict = fakeExchange({ headers: { 'idempotency-key': 'k1' }, body: { name: 'b' } });
    await expect(setUp({ requestHash: sameHash, answer }).claims.claim(conflict.req, 'key_1', handler)).rejects.toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
      param: 'Idempotency-Key',
    });
  });
});
