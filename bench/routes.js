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
];

module.exports = { ROUTES };
