import { BACKEND_BUSY, busyRetryAfter, isBackendOutage } from './backend-outage';

const withCode = (code: string, message = 'failure') => Object.assign(new Error(message), { code });

describe('isBackendOutage', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset socket', withCode('ECONNRESET')],
    ['pg-pool connect deadline', new Error('timeout exceeded when trying to connect')],
    ['pg read deadline', new Error('Query read timeout')],
    ['pg connection lost', new Error('Connection terminated unexpectedly')],
    ['statement_timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['server shutting down', withCode('57P01')],
    ['too many connections', withCode('53300')],
    ['connection exception', withCode('08006')],
    ['ioredis command deadline', new Error('Command timed out')],
    ['ioredis closed connection', new Error('Connection is closed.')],
    ['ioredis retries exhausted', Object.assign(new Error('x'), { name: 'MaxRetriesPerRequestError' })],
  ])('recognises %s', (_name, error) => {
    expect(isBackendOutage(error)).toBe(true);
  });

  it('looks inside TypeORM wrappers, causes and AggregateErrors', () => {
    expect(isBackendOutage(Object.assign(new Error('query failed'), { driverError: withCode('57014') }))).toBe(true);
    expect(isBackendOutage(new Error('wrapped', { cause: withCode('ETIMEDOUT') }))).toBe(true);
    expect(isBackendOutage(new AggregateError([withCode('ECONNREFUSED')], 'all addresses failed'))).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', withCode('42601')],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['not an error', 'ECONNREFUSED'],
  ])('leaves %s alone', (_name, error) => {
    expect(isBackendOutage(error)).toBe(false);
  });
});

describe('busyRetryAfter', () => {
  const busy = Object.assign(new Error('The database is busy'), { code: BACKEND_BUSY, retryAfterSeconds: 3 });

  it("reads a busy backend's own Retry-After, also inside TypeORM's wrapper", () => {
    expect(busyRetryAfter(busy)).toBe(3);
    expect(busyRetryAfter(Object.assign(new Error('query failed'), { driverError: busy }))).toBe(3);
  });

  it('finds none in an outage or a bug', () => {
    expect(busyRetryAfter(withCode('ECONNREFUSED'))).toBeNull();
    expect(busyRetryAfter(new TypeError('x'))).toBeNull();
    expect(busyRetryAfter(Object.assign(new Error('no seconds'), { code: BACKEND_BUSY }))).toBeNull();
  });
});
