/**
 * The benchmarked routes: what each request sends, and the data each needs first. `prepare` runs
 * once per route before its rounds; every target gets the same keys and the same data.
 */

async function call(port, method, path, key, body) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

const withKey = (request, key) => ({ ...request, headers: { ...request.headers, authorization: `Bearer ${key}` } });

const withBody = (request, key, body) => ({
  ...withKey(request, key),
  headers: { ...request.headers, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

// Texts the classifier meets in real life: a bug, a wish, praise, a billing question, support.
const FEEDBACK_TEXTS = [
  'The export button crashes the page on Safari 17 when the list is long.',
  'Would love a dark mode for the dashboard, my eyes would thank you.',
  'Great release, the new changelog widget looks fantastic on our site!',
  'I was charged twice this month, can you refund the second invoice?',
  'How do I invite a teammate to my project? I cannot find the setting.',
];

let sequence = 0;

/**
 * A changelog as a real project has one: 30 published public entries (two pinned) with a few
 * paragraphs each and labels, plus drafts and a signed-in entry the public set leaves out. Written
 * with SQL: the owner API is not what these routes measure.
 */
async function seedChangelog(env, projectId) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    const { newId } = require('../dist/common/ids/ids');
    const labels = [];
    for (const [slug, colour] of [
      ['api', 'blue'],
      ['ui', 'green'],
      ['billing', 'amber'],
    ]) {
      const id = newId('lbl');
      await client.query(
        `INSERT INTO changelog_labels (id, project_id, name, slug, colour, created_at, updated_at) VALUES ($1, $2, $3, $3, $4, now(), now())`,
        [id, projectId, slug, colour],
      );
      labels.push(id);
    }
    const body = [
      'We rebuilt the **export** pipeline: large lists now export in seconds, and the file keeps your column order.',
      '- CSV and JSON\n- Filters carry over\n- Works from the API too: `GET /v1/exports`',
      'Read the [guide](https://example.com/docs/exports) for details.',
    ].join('\n\n');
    for (let i = 0; i < 36; i += 1) {
      const id = newId('ce');
      const status = i < 33 ? 'published' : 'draft';
      await client.query(
        `INSERT INTO changelog_entries (id, project_id, title, body_markdown, version, category, status, published_at, audience, pinned,
           cover_image_url, cta_label, cta_url, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now(), now())`,
        [
          id,
          projectId,
          `Release ${i}: faster exports`,
          body,
          `1.${i}.0`,
          ['feature', 'fix', 'improvement'][i % 3],
          status,
          status === 'published' ? new Date(Date.now() - (36 - i) * 86_400_000) : null,
          i === 32 ? 'signed_in' : 'public',
          i < 2,
          i % 5 === 0 ? 'https://images.example.com/cover.png' : null,
          i % 4 === 0 ? 'Try it' : null,
          i % 4 === 0 ? 'https://example.com/try' : null,
        ],
      );
      await client.query('INSERT INTO changelog_entry_labels (entry_id, label_id) VALUES ($1, $2)', [id, labels[i % labels.length]]);
    }
    const { rows } = await client.query('SELECT slug FROM projects WHERE id = $1', [projectId]);
    return rows[0].slug;
  } finally {
    await client.end();
  }
}

/**
 * What the widget adds to that changelog for 10,000 verified users: the newest public entry is the
 * live banner announcement (until next week); reactions from a twentieth of the users on every other
 * entry, with their counts as changelog_reaction_counts keeps them; and every third user has seen
 * about half the entries (some the announcement), so unseen counts, `seen` flags and the announcement
 * differ by user. SQL again, after seedChangelog.
 */
async function seedWidget(env, projectId, users) {
  await seedChangelog(env, projectId);
  const { Client } = require('pg');
  const client = new Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `UPDATE changelog_entries SET announcement_style = 'banner', announcement_until = now() + interval '7 days'
       WHERE id = (SELECT id FROM changelog_entries WHERE project_id = $1 AND status = 'published' AND audience = 'public' AND NOT pinned
                   ORDER BY published_at DESC LIMIT 1)`,
      [projectId],
    );
    // The published entries, oldest first: `n` numbers them, as seedChangelog's `i` did.
    const published = `SELECT id, row_number() OVER (ORDER BY published_at) AS n FROM changelog_entries
                       WHERE project_id = $1 AND status = 'published'`;
    await client.query(
      `INSERT INTO changelog_reactions (entry_id, reactor, project_id, reaction, reacted_at)
       SELECT e.id, 'u:user_' || u, $1, (ARRAY['like', 'celebrate', 'dislike'])[1 + (u + e.n) % 3], now()
       FROM (${published}) e CROSS JOIN generate_series(0, $2 - 1) u WHERE e.n % 2 = 0 AND (u + e.n) % 20 = 0`,
      [projectId, users],
    );
    await client.query(
      `INSERT INTO changelog_reaction_counts (entry_id, reaction, count)
       SELECT entry_id, reaction, count(*) FROM changelog_reactions WHERE project_id = $1 GROUP BY entry_id, reaction`,
      [projectId],
    );
    await client.query(
      `INSERT INTO changelog_readers (entry_id, user_id, project_id, first_seen_at)
       SELECT e.id, 'user_' || u, $1, now() FROM (${published}) e CROSS JOIN generate_series(0, $2 - 1, 3) u
       WHERE (u / 3 + e.n) % 2 = 0`,
      [projectId, users],
    );
    await client.query('COMMIT');
    await client.query(
      'ANALYZE changelog_entries; ANALYZE changelog_reactions; ANALYZE changelog_reaction_counts; ANALYZE changelog_readers',
    );
  } finally {
    await client.end();
  }
}

/** A public changelog route: no key; `path` is filled with the project's slug. */
function publicChangelogRoute(name, suffix, options = {}) {
  return {
    name,
    method: 'GET',
    path: '/public/changelog/{slug}',
    expectedStatus: options.notModified ? 304 : 200,
    prepare: async ({ createProject, env, port }) => {
      const project = createProject(`Bench ${name}`);
      const slug = await seedChangelog(env, project.id);
      const path = `${options.page ? '/changelog' : '/public/changelog'}/${slug}${suffix}`;
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      return { path, etag: res.headers.get('etag') };
    },
    request: (request, { path, etag }) => ({
      ...request,
      path,
      headers: options.notModified ? { ...request.headers, 'if-none-match': etag } : request.headers,
    }),
  };
}

const BELL_USERS = 10_000;

/**
 * A bell at scale (issue 10, item 11): 100,000 notifications to 10,000 users (ten each, over the
 * last 60 days, a third of them read), a broadcast a day for 30 days (a tenth of the users read
 * each), written with SQL in one pass. Then every user's bell asks once, so the hourly bell_users
 * write is done before the measured rounds (targets share the Redis counters): what is measured is
 * the steady poll, whose only work is the read counter and one statement.
 */
async function seedBell(env, port, project, path) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO notifications (id, project_id, kind, user_id, title, body, icon, category, actions, status, visible_at, recipient_count, created_at)
       SELECT 'ntf_' || upper(substr(md5($1 || 'u' || g), 1, 26)), $1, 'user', 'user_' || (g % $2), 'Your export is ready',
              'The PDF of March is ready to download.', 'info', CASE WHEN g % 3 = 0 THEN 'billing' END, '[]', 'visible',
              now() - (g % 86400) * interval '1 minute', 1, now() - (g % 86400) * interval '1 minute'
       FROM generate_series(1, 100000) g`,
      [project.id, BELL_USERS],
    );
    await client.query(
      `INSERT INTO notification_recipients (notification_id, user_id, project_id, visible_at)
       SELECT id, user_id, project_id, visible_at FROM notifications WHERE project_id = $1 AND kind = 'user'`,
      [project.id],
    );
    await client.query(
      `INSERT INTO notifications (id, project_id, kind, title, body, icon, actions, status, visible_at, recipient_count, created_at, reactions)
       SELECT 'ntf_' || upper(substr(md5($1 || 'b' || g), 1, 26)), $1, 'broadcast', 'New: faster exports', 'Exports now finish in seconds.',
              'info', '[]', 'visible', now() - g * interval '1 day' - interval '1 hour', 0, now() - g * interval '1 day', '["like","celebrate"]'
       FROM generate_series(0, 29) g`,
      [project.id],
    );
    await client.query(
      `INSERT INTO notification_receipts (notification_id, user_id, project_id, read_at, updated_at)
       SELECT n.notification_id, n.user_id, n.project_id, now(), now() FROM notification_recipients n
       WHERE n.project_id = $1 AND hashtext(n.notification_id) % 3 = 0
       UNION ALL
       SELECT b.id, 'user_' || u, b.project_id, now(), now()
       FROM notifications b CROSS JOIN generate_series(0, $2 - 1, 10) u WHERE b.project_id = $1 AND b.kind = 'broadcast'`,
      [project.id, BELL_USERS],
    );
    await client.query('COMMIT');
    await client.query('ANALYZE notifications; ANALYZE notification_recipients; ANALYZE notification_receipts');
  } finally {
    await client.end();
  }
  // Each user's first read of the hour (the bell_users write), 50 at a time.
  let next = 0;
  const worker = async () => {
    while (next < BELL_USERS) {
      const user = `user_${next++}`;
      await call(port, 'GET', `${path}?user_id=${user}`, project.secretKey);
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
}

/**
 * A call for one of `users` verified users in turn, as a browser makes it: the publishable key,
 * `user_id` and its `user_hash` (one HMAC per request on the server), under the per-IP browser
 * limit. `seed` writes the route's data; then the project's signing secret is created through the API.
 */
function verifiedUserRoute(name, path, users, seed, options = {}) {
  return {
    name,
    method: 'GET',
    path,
    prepare: async ({ createProject, env, port }) => {
      const project = createProject(`Bench ${name}`);
      await seed(env, port, project);
      const { data } = await call(port, 'POST', '/v1/notifications/signing-secret', project.secretKey, {});
      const { userHashOf } = require('../dist/auth/user-hash');
      const hashes = Array.from({ length: users }, (_, user) => userHashOf(`user_${user}`, data.signing_secret));
      return { project, hashes, tags: new Map() };
    },
    request: (request, { project, hashes, target, tags }, connection) => {
      sequence += 1;
      const user = sequence % users;
      const polled = withKey(request, project.publishableKey);
      const headers = { ...polled.headers, 'x-service-user-hash': hashes[user] };
      if (options.conditional) {
        // The tag this target last answered this user, as a browser's cache holds it.
        connection.user = user;
        const held = tagsOf(tags, target).get(user);
        if (held) headers['if-none-match'] = held;
      }
      return { ...polled, headers, path: `${path}?user_id=user_${user}` };
    },
    ...(options.conditional && {
      // Either answer is right: 200 with a tag for a user this target has not answered yet, then 304.
      expectedStatus: [200, 304],
      onResponse: (status, headers, { tags, target }, connection) => {
        const tag = headers.ETag ?? headers.etag;
        if (status === 200 && tag) tagsOf(tags, target).set(connection.user, tag);
      },
    }),
  };
}

/** Each target's tags by user: the service's and the baselines' tags differ, as their hashes do. */
function tagsOf(tags, target) {
  if (!tags.has(target)) tags.set(target, new Map());
  return tags.get(target);
}

/**
 * A bell poll, also under the user's hourly read limit. `conditional`: as the bell script polls,
 * with If-None-Match naming the tag of the answer it holds (the browser's HTTP cache sends it), so
 * an unchanged bell is 304 without a body.
 */
const bellRoute = (name, path, options) =>
  verifiedUserRoute(name, path, BELL_USERS, (env, port, project) => seedBell(env, port, project, path), options);

/**
 * The bell poll right after a change (the cache must not slow the miss): while the route runs, the
 * notification a broadcast's write sends (`bell-project:<project>`) drops every copy of the
 * project's bells every DROP_EVERY_MS, and a person's turn comes back only every few seconds, so
 * each poll finds no copy and reads the count, as the first poll after a send does. The service's
 * listener reads five notifications a second for it; the baselines hold no copy and read none.
 */
const DROP_EVERY_MS = 200;
function bellAfterChangeRoute(name, path) {
  return {
    ...bellRoute(name, path),
    alongside: async ({ env, project }) => {
      const { Client } = require('pg');
      const { CACHE_INVALIDATION_CHANNEL, BELL_CHANGES } = require('../dist/infra/database/change-notifications.service');
      const client = new Client({ connectionString: env.DATABASE_URL });
      await client.connect();
      let running = true;
      const dropping = (async () => {
        while (running) {
          await client.query('SELECT pg_notify($1, $2)', [CACHE_INVALIDATION_CHANNEL, `${BELL_CHANGES.project}:${project.id}`]);
          await new Promise((resolve) => setTimeout(resolve, DROP_EVERY_MS));
        }
      })();
      return async () => {
        running = false;
        await dropping;
        await client.end();
      };
    },
  };
}

const WIDGET_USERS = 10_000;

/** The changelog widget of a signed-in product: its first page (default limit 20) or the launcher badge. */
const widgetRoute = (name, path) =>
  verifiedUserRoute(name, path, WIDGET_USERS, (env, _port, project) => seedWidget(env, project.id, WIDGET_USERS));

const ROUTES = [
  {
    name: 'GET /v1/setup-check',
    method: 'GET',
    path: '/v1/setup-check',
    prepare: async ({ createProject }) => ({ project: createProject('Bench setup-check') }),
    request: (request, { project }) => withKey(request, project.secretKey),
  },
  {
    name: 'GET /v1/waitlist/stats',
    method: 'GET',
    path: '/v1/waitlist/stats',
    // 1,000 signups, every tenth referred by one of the first ten: the stats have something to count.
    prepare: async ({ createProject, port }) => {
      const project = createProject('Bench stats');
      const codes = [];
      for (let i = 0; i < 1000; i += 1) {
        const body = { email: `stats-${i}@bench.test` };
        if (i % 10 === 9) body.referrer_code = codes[i % codes.length];
        const { data } = await call(port, 'POST', '/v1/waitlist/signups', project.secretKey, body);
        if (codes.length < 10) codes.push(data.referral_code);
      }
      return { project };
    },
    request: (request, { project }) => withKey(request, project.secretKey),
  },
  {
    name: 'POST /v1/waitlist/signups',
    method: 'POST',
    path: '/v1/waitlist/signups',
    // A browser signup with the publishable key: a new person each time, one in five referred.
    prepare: async ({ createProject, port }) => {
      const project = createProject('Bench signups');
      const { data } = await call(port, 'POST', '/v1/waitlist/signups', project.secretKey, { email: 'referrer@bench.test' });
      return { project, referralCode: data.referral_code };
    },
    request: (request, { project, referralCode, target, round }) => {
      sequence += 1;
      const body = { email: `${target.replace(' ', '-')}-${round}-${sequence}@bench.test`, metadata: { plan: 'pro' } };
      if (sequence % 5 === 0) body.referrer_code = referralCode;
      return withBody(request, project.publishableKey, body);
    },
  },
  {
    name: 'POST /v1/feedback',
    method: 'POST',
    path: '/v1/feedback',
    // Browser feedback with an email and a user id: classification, two contacts, one event.
    prepare: async ({ createProject }) => ({ project: createProject('Bench feedback') }),
    request: (request, { project }) => {
      sequence += 1;
      return withBody(request, project.publishableKey, {
        feedback_text: FEEDBACK_TEXTS[sequence % FEEDBACK_TEXTS.length],
        email: `reader-${sequence % 500}@bench.test`,
        user_id: `user_${sequence % 500}`,
      });
    },
  },
  publicChangelogRoute('GET /public/changelog/{slug}', ''),
  // A reader (or a CDN) revalidating its copy: the same query, then 304 without a body.
  publicChangelogRoute('GET /public/changelog/{slug} 304', '', { notModified: true }),
  publicChangelogRoute('GET /public/changelog/{slug}/rss.xml', '/rss.xml'),
  publicChangelogRoute('GET /public/changelog/{slug}/atom.xml', '/atom.xml'),
  publicChangelogRoute('GET /public/changelog/{slug}/feed.json', '/feed.json'),
  publicChangelogRoute('GET /changelog/{slug}', '', { page: true }),
  bellRoute('GET /v1/notifications/unread/count', '/v1/notifications/unread/count'),
  bellRoute('GET /v1/notifications/unread/count 304', '/v1/notifications/unread/count', { conditional: true }),
  bellAfterChangeRoute('GET /v1/notifications/unread/count after a change', '/v1/notifications/unread/count'),
  bellRoute('GET /v1/notifications/inbox', '/v1/notifications/inbox'),
  widgetRoute('GET /v1/changelog/widget/entries', '/v1/changelog/widget/entries'),
  widgetRoute('GET /v1/changelog/widget/unseen', '/v1/changelog/widget/unseen'),
];

module.exports = { ROUTES, BELL_USERS };
