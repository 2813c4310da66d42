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
];

module.exports = { ROUTES };
