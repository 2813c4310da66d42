import { Client } from 'pg';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { runCli, ServerProcess, startServerProcess } from '../support/server-process';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Signup {
  key: string;
  email: string;
}

async function query<T extends object>(db: TestDatabase, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function countRows(db: TestDatabase, table: 'idempotency_records' | 'waitlist_signups'): Promise<number> {
  const rows = await query<{ count: string }>(db, `SELECT COUNT(*) AS count FROM ${table}`);
  return Number(rows[0].count);
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(50)) {
    if (await check()) return;
  }
  throw new Error(`timed out waiting for ${what}`);
}

function postSignup(server: ServerProcess, secretKey: string, signup: Signup): Promise<Response> {
  return fetch(`${server.url}/v1/waitlist/signups`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', 'idempotency-key': signup.key },
    body: JSON.stringify({ email: signup.email }),
  });
}

describe('Idempotency-Key across a kill -9 (child server)', () => {
  let db: TestDatabase;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await db.drop();
  });

  it('replays committed signups or runs them once after a crash: one signup per email, no 409', async () => {
    // Every idempotent answer is held back after its COMMIT, so the kill lands between the two.
    server = await startServerProcess({ DATABASE_URL: db.url, TEST_DELAY_AFTER_IDEMPOTENT_COMMIT_MS: '30000' });
    const created = await runCli({ DATABASE_URL: db.url }, 'project:create', '--name', 'Crash', '--plan', 'builder');
    const secretKey = String(created.secret_key);
    const signups: Signup[] = Array.from({ length: 12 }, (_, i) => ({ key: `crash-key-${i}`, email: `crash${i}@example.com` }));
    const [committedFirst, inFlightAtKill] = [signups.slice(0, 6), signups.slice(6)];

    const answered: Array<Promise<number | 'no answer'>> = [];
    const send = (signup: Signup) =>
      answered.push(
        postSignup(server!, secretKey, signup).then(
          (res) => res.status,
          () => 'no answer' as const,
        ),
      );
    committedFirst.forEach(send);
    // The first six have committed their signup, and with it their answer; they wait to answer.
    await waitFor(async () => (await countRows(db, 'waitlist_signups')) === committedFirst.length, 'the first commits');
    expect(await countRows(db, 'idempotency_records')).toBe(committedFirst.length);
    // The other six are anywhere between arriving and committing when the process dies.
    inFlightAtKill.forEach(send);
    await sleep(30);
    expect(await server.stop('SIGKILL')).toBe('SIGKILL');
    expect(await Promise.all(answered)).toEqual(signups.map(() => 'no answer'));

    server = await startServerProcess({ DATABASE_URL: db.url });
    const retries = [];
    for (const signup of signups) {
      const res = await postSignup(server, secretKey, signup);
      retries.push({ signup, status: res.status, replayed: res.headers.get('idempotent-replayed'), body: await res.text() });
    }
    expect(retries.map((retry) => retry.status)).toEqual(signups.map(() => 201));
    const emailOf = new Map(
      (await query<{ id: string; email: string }>(db, 'SELECT id, email FROM waitlist_signups')).map((row) => [row.id, row.email]),
    );
    for (const retry of retries) {
      const body = JSON.parse(retry.body) as { data: { signup_id: string } };
      expect(emailOf.get(body.data.signup_id)).toBe(retry.signup.email);
    }
    // The first six committed before the kill: their retries are replays of the recorded answers.
    expect(retries.slice(0, 6).map((retry) => retry.replayed)).toEqual(committedFirst.map(() => 'true'));
    expect(await countRows(db, 'waitlist_signups')).toBe(signups.length);
    expect(await countRows(db, 'idempotency_records')).toBe(signups.length);
    const positions = retries.map((retry) => (JSON.parse(retry.body) as { data: { position: number } }).data.position);
    expect(new Set(positions).size).toBe(signups.length);

    // A second round replays every answer byte for byte.
    for (const retry of retries) {
      const again = await postSignup(server, secretKey, retry.signup);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await again.text()).toBe(retry.body);
    }
  }, 120_000);
});
