/**
 * How long one send takes through the full stack (issue: notifications at scale), the service
 * alone: a broadcast to a project with 1,000 known users and to one with 1,000,000 (it must not
 * differ: a broadcast is one row), and a group send to 10,000 user ids (under a second). Known
 * users are contacts with a user id plus bell users, as a busy product would have them. Each is
 * the median of a few sequential sends.
 */
const { Client } = require('pg');

const SENDS = 7;

async function seedKnownUsers(databaseUrl, projectId, count) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO contacts (id, project_id, email, user_id, stage, created_at, updated_at)
       SELECT 'ct_' || substr(md5($1 || g), 1, 26), $1, 'user' || g || '@bench.test', 'user_' || g, 'user', now(), now()
       FROM generate_series(1, $2) g`,
      [projectId, count],
    );
    await client.query(
      `INSERT INTO bell_users (project_id, user_id, first_seen_at, last_seen_at)
       SELECT $1, 'user_' || g, now() - interval '1 day', now() FROM generate_series(1, $2) g`,
      [projectId, count],
    );
    await client.query('ANALYZE contacts; ANALYZE bell_users');
  } finally {
    await client.end();
  }
}

async function timeSends(port, key, body) {
  const times = [];
  for (let i = 0; i < SENDS; i += 1) {
    const started = process.hrtime.bigint();
    const res = await fetch(`http://127.0.0.1:${port}/v1/notifications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Send ${i}`, body: 'A benchmark send.', ...body }),
    });
    const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    if (res.status !== 201) throw new Error(`POST /v1/notifications answered ${res.status}: ${await res.text()}`);
    times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function sendTimings({ port, env, createProject }) {
  const small = createProject('Bench sends, 1,000 users');
  const large = createProject('Bench sends, 1,000,000 users');
  const group = createProject('Bench sends, a group of 10,000');
  await seedKnownUsers(env.DATABASE_URL, small.id, 1_000);
  await seedKnownUsers(env.DATABASE_URL, large.id, 1_000_000);
  await seedKnownUsers(env.DATABASE_URL, group.id, 10_000);
  return [
    { send: 'broadcast, 1,000 known users', median_ms: await timeSends(port, small.secretKey, { audience: 'all' }) },
    { send: 'broadcast, 1,000,000 known users', median_ms: await timeSends(port, large.secretKey, { audience: 'all' }) },
    // Every contact of the project (stage user): 10,000 people resolved and stored in one send.
    { send: 'group of 10,000 (contacts filter)', median_ms: await timeSends(port, group.secretKey, { contacts: { stage: 'user' } }) },
  ];
}

module.exports = { sendTimings };
