/**
 * Baseline: node:http and pg, nothing else. The same work as the other targets (baseline-work.js);
 * the ceiling of this machine for it.
 */
const { createServer } = require('node:http');
const { BaselineWork } = require('./baseline-work');

const work = new BaselineWork({ databaseUrl: process.env.DATABASE_URL, poolSize: Number(process.env.BENCH_POOL_SIZE ?? 10) });
const baseUrl = process.env.PUBLIC_BASE_URL ?? 'http://localhost';

function send(res, status, body) {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
}

const ROUTES = {
  'GET /v1/setup-check': async (req) => {
    const project = await work.authenticate(req.headers.authorization, true);
    return project ? [200, work.setupCheck(project, baseUrl)] : [401, null];
  },
  'GET /v1/waitlist/stats': async (req) => {
    const project = await work.authenticate(req.headers.authorization, true);
    return project ? [200, await work.waitlistStats(project)] : [401, null];
  },
};

const server = createServer((req, res) => {
  const handler = ROUTES[`${req.method} ${req.url.split('?')[0]}`];
  if (!handler) return send(res, 404, { data: null, error: { code: 'NOT_FOUND' } });
  handler(req, res, readJson)
    .then(([status, data]) => send(res, status, status < 300 ? { data, error: null } : { data: null, error: { code: 'INVALID_API_KEY' } }))
    .catch((error) => send(res, 500, { data: null, error: { code: 'INTERNAL_ERROR', message: String(error) } }));
});

server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => work.close().then(() => process.exit(0))));
