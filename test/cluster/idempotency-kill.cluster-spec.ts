import type { Response } from 'supertest';
import { Cluster, startCluster } from '../support/cluster';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const range = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

// The bound on a dead process's claim: a session it left inside a transaction ends within this.
// A SIGKILLed process's sockets close at once, so PostgreSQL normally ends its sessions sooner.
const IDLE_IN_TRANSACTION_MS = 2_000;
// Every answer is held back this long after its COMMIT, so that the kill finds some requests
// committed but unanswered, beside some not yet committed.
const ANSWER_DELAY_MS = 1_000;
const PER_KIND = 50;
const SENDERS = 20;
const KILL_AFTER_ANSWERS = 30;

interface Call {
  key: string;
  kind: 'signup' | 'entry';
  path: string;
  body: object;
  /** The answer of API 0, if it gave one before it died. */
  original?: Response;
  /** The answer of API 1 to the first retry, for a call API 0 left unanswered. */
  retried?: Response;
  /** The answer of API 1 to the retry of every call. */
  again?: Response;
}

/** A request that got no answer at all (the connection was reset or refused), as opposed to an error answer. */
function noAnswer(error: NodeJS.ErrnoException): boolean {
  return ['ECONNRESET', 'ECONNREFUSED', 'EPIPE'].includes(error.code ?? '') || error.message === 'socket hang up';
}

describe.each([
  ['PostgreSQL + Redis', true],
  ['PostgreSQL alone', false],
])('an API process killed mid-burst of idempotent requests (%s)', (_mode, redis) => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster({
      apis: 2,
      workers: 1,
      redis,
      env: {
        DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: String(IDLE_IN_TRANSACTION_MS),
        TEST_DELAY_AFTER_IDEMPOTENT_COMMIT_MS: String(ANSWER_DELAY_MS),
        // The test server's connections are shared with parallel suites.
        DATABASE_POOL_SIZE: '5',
      },
    });
  });
  afterAll(() => cluster?.close());

  it('leaves one row per Idempotency-Key when the retries go to the other process, and replays the original answers', async () => {
    const { projectId, secretKey } = await cluster.createProject('scale');
    const calls: Call[] = range(PER_KIND).flatMap((n): Call[] => [
      { key: `signup-${n}`, kind: 'signup', path: '/v1/waitlist/signups', body: { email: `burst${n}@x.io` } },
      {
        key: `entry-${n}`,
        kind: 'entry',
        path: '/v1/changelog/entries',
        body: { title: `Entry ${n}`, body_markdown: 'Body.', category: 'feature' },
      },
    ]);
    const send = (index: number, call: Call): Promise<Response | null> =>
      cluster
        .apiAt(index)
        .as(secretKey)
        .post(call.path)
        .set('Idempotency-Key', call.key)
        .send(call.body)
        .then(
          (res) => res,
          (error: NodeJS.ErrnoException) => {
            if (noAnswer(error)) return null;
            throw error;
          },
        );

    // The burst, to API 0: SENDERS requests in flight at a time until it dies.
    const queue = [...calls];
    let answered = 0;
    const burst = Promise.all(
      range(SENDERS).map(async () => {
        for (let call = queue.shift(); call; call = queue.shift()) {
          call.original = (await send(0, call)) ?? undefined;
          if (call.original) answered += 1;
        }
      }),
    );
    for (const deadline = Date.now() + 60_000; answered < KILL_AFTER_ANSWERS; await sleep(5)) {
      if (Date.now() > deadline) throw new Error(`only ${answered} answers within 60 s`);
    }
    expect(await cluster.apis[0].stop('SIGKILL')).toBe('SIGKILL');
    const killedAt = Date.now();
    await burst;

    // Every call without an answer goes to API 1 with the same key and body. A claim still held by
    // a session of the dead process answers 409 with Retry-After; those are counted and retried.
    const conflicts: number[] = [];
    const unanswered = calls.filter((call) => !call.original);
    await Promise.all(
      unanswered.map(async (call) => {
        for (;;) {
          const res = await send(1, call);
          if (!res) throw new Error(`API 1 did not answer ${call.key}`);
          if (res.status !== 409) return void (call.retried = res);
          expect([res.body.error.code, res.headers['retry-after']]).toEqual(['IDEMPOTENCY_CONFLICT', '1']);
          conflicts.push(Date.now() - killedAt);
          await sleep(200);
        }
      }),
    );
    // Then every call once more, on API 1: each is a replay of the one answer its key has.
    for (const call of calls) call.again = (await send(1, call)) ?? undefined;

    const first = (call: Call) => call.original ?? call.retried;
    expect(calls.filter((call) => first(call)?.status !== 201).map((call) => [call.key, first(call)?.status, first(call)?.body])).toEqual(
      [],
    );
    expect(
      calls.filter(
        (call) =>
          call.again?.status !== 201 || call.again.headers['idempotent-replayed'] !== 'true' || call.again.text !== first(call)?.text,
      ),
    ).toEqual([]);
    // 409 only while a claim of the dead process could still be held.
    expect(conflicts.filter((ms) => ms > IDLE_IN_TRANSACTION_MS + 3_000)).toEqual([]);

    // The three fates a call can have at a kill all happened: answered before it, committed but
    // unanswered (the retry replays the commit), not committed (the retry runs it, once).
    const committedUnanswered = unanswered.filter((call) => call.retried?.headers['idempotent-replayed'] === 'true');
    const ranOnRetry = unanswered.filter((call) => call.retried?.headers['idempotent-replayed'] === undefined);
    expect(calls.length - unanswered.length).toBeGreaterThanOrEqual(KILL_AFTER_ANSWERS);
    expect(committedUnanswered.length).toBeGreaterThan(0);
    expect(ranOnRetry.length).toBeGreaterThan(0);
    expect(committedUnanswered.length + ranOnRetry.length).toBe(unanswered.length);

    // One row per key, and it is the row every answer names.
    const signups = await cluster.sql<{ id: string; email: string; position: number }>(
      'SELECT id, email, position FROM waitlist_signups WHERE project_id = $1 ORDER BY position',
      [projectId],
    );
    expect(signups.map((row) => row.position)).toEqual(range(PER_KIND));
    const entries = await cluster.sql<{ id: string; title: string }>('SELECT id, title FROM changelog_entries WHERE project_id = $1', [
      projectId,
    ]);
    const idOf = new Map<string, string>([
      ...signups.map((row) => [row.email, row.id] as const),
      ...entries.map((row) => [row.title, row.id] as const),
    ]);
    expect(idOf.size).toBe(2 * PER_KIND);
    const named = (call: Call) =>
      idOf.get(call.kind === 'signup' ? (call.body as { email: string }).email : (call.body as { title: string }).title);
    const answeredId = (call: Call) => (call.kind === 'signup' ? first(call)?.body.data.signup_id : first(call)?.body.data.id) as string;
    expect(calls.filter((call) => answeredId(call) !== named(call)).map((call) => [call.key, answeredId(call), named(call)])).toEqual([]);
    const [records] = await cluster.sql<{ count: number }>('SELECT count(*)::int AS count FROM idempotency_records WHERE project_id = $1', [
      projectId,
    ]);
    expect(records.count).toBe(calls.length);
    process.stdout.write(
      `killed mid-burst: ${calls.length - unanswered.length} answered, ${committedUnanswered.length} committed unanswered, ` +
        `${ranOnRetry.length} run on retry, ${conflicts.length} 409s (last ${Math.max(0, ...conflicts)} ms after the kill)\n`,
    );
  });
});
