/**
 * Baseline: node:http and pg, nothing else. The same work as the other targets (baseline-work.js);
 * the ceiling of this machine for it.
 */
const { createServer } = require('node:http');
const { BaselineWork } = require('./baseline-work');
const { workOptionsFromEnv } = require('./baseline-options');

const work = new BaselineWork(workOptionsFromEnv());
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

class Refusal extends Error {
  constructor(status, code) {
    super(code);
    this.status = status;
  }
}

async function projectOf(req, needsSecret) {
  const project = await work.authenticate(req.headers.authorization, needsSecret);
  if (!project) throw new Refusal(401, 'INVALID_API_KEY');
  return project;
}

async function browserProjectOf(req) {
  const project = await projectOf(req, false);
  if (!(await work.limitBrowser(req.socket.remoteAddress))) throw new Refusal(429, 'RATE_LIMITED');
  return project;
}

/** A verified user's call from a browser: key, browser limit and user hash, then the read (an answer, maybe with meta). */
async function verified(req, read) {
  const userId = new URL(req.url, 'http://localhost').searchParams.get('user_id');
  const project = await work.authenticateEndUser(
    req.headers.authorization,
    req.socket.remoteAddress,
    userId,
    req.headers['x-service-user-hash'],
  );
  if (!project) throw new Refusal(403, 'USER_HASH_INVALID');
  return read(project, userId);
}

/** A browser's bell read: a verified user's call, with the user's hourly read count before the read. */
function bell(req, read) {
  return verified(req, async (project, userId) => {
    if (!(await work.countBellRead(project, userId))) throw new Refusal(429, 'RATE_LIMITED');
    return read(project, userId);
  });
}

const END_USER_ROUTES = {
  'GET /v1/notifications/unread/count': (req) => bell(req, (project, userId) => work.unreadCount(project, userId)),
  'GET /v1/notifications/inbox': (req) => bell(req, (project, userId) => work.inbox(project, userId)),
  'GET /v1/changelog/widget/entries': (req) => verified(req, (project, userId) => work.widgetEntries(project, userId, baseUrl)),
  'GET /v1/changelog/widget/unseen': (req) => verified(req, (project, userId) => work.widgetUnseen(project, userId)),
};

const ROUTES = {
  'GET /v1/setup-check': async (req) => [200, work.setupCheck(await projectOf(req, true), baseUrl)],
  'GET /v1/waitlist/stats': async (req) => [200, await work.waitlistStats(await projectOf(req, true))],
  'POST /v1/waitlist/signups': async (req) => {
    const project = await browserProjectOf(req);
    return [201, await work.createSignup(project, await readJson(req), 'widget', baseUrl)];
  },
  'POST /v1/feedback': async (req) => {
    const project = await browserProjectOf(req);
    return [201, await work.createFeedback(project, await readJson(req))];
  },
};

/** GET /public/changelog/{slug}, its feeds, and the page /changelog/{slug}: the body, its headers, or 304. */
const PUBLIC_CHANGELOG = /^\/(public\/)?changelog\/([^/?]+)(\/rss\.xml|\/atom\.xml|\/feed\.json)?$/;
const FEEDS = { '/rss.xml': 'rss', '/atom.xml': 'atom', '/feed.json': 'json-feed' };

async function publicChangelog(req, res, match) {
  if (!(await work.limitBrowser(req.socket.remoteAddress))) throw new Refusal(429, 'RATE_LIMITED');
  const kind = match[1] ? (match[3] ? FEEDS[match[3]] : 'json') : 'page';
  const reply = await work.publicChangelog(match[2], kind, baseUrl);
  if (!reply) throw new Refusal(404, 'NOT_FOUND');
  if (req.headers['if-none-match'] === reply.headers.ETag) {
    res.writeHead(304, { ETag: reply.headers.ETag, 'Cache-Control': reply.headers['Cache-Control'] });
    return res.end();
  }
  res.writeHead(200, { ...reply.headers, 'content-type': reply.contentType, 'content-length': Buffer.byteLength(reply.body) });
  res.end(reply.body);
}

function refuse(res, error) {
  return error instanceof Refusal
    ? send(res, error.status, { data: null, error: { code: error.message } })
    : send(res, 500, { data: null, error: { code: 'INTERNAL_ERROR', message: String(error) } });
}

const server = createServer((req, res) => {
  const changelog = req.method === 'GET' ? PUBLIC_CHANGELOG.exec(req.url.split('?')[0]) : null;
  if (changelog) return void publicChangelog(req, res, changelog).catch((error) => refuse(res, error));
  const endUserRead = END_USER_ROUTES[`${req.method} ${req.url.split('?')[0]}`];
  if (endUserRead) {
    return void endUserRead(req)
      .then((answer) => send(res, 200, { data: answer.data, error: null, meta: answer.meta }))
      .catch((error) => refuse(res, error));
  }
  const handler = ROUTES[`${req.method} ${req.url.split('?')[0]}`];
  if (!handler) return send(res, 404, { data: null, error: { code: 'NOT_FOUND' } });
  handler(req)
    .then(([status, data]) => send(res, status, { data, error: null }))
    .catch((error) =>
      error instanceof Refusal
        ? send(res, error.status, { data: null, error: { code: error.message } })
        : send(res, 500, { data: null, error: { code: 'INTERNAL_ERROR', message: String(error) } }),
    );
});

server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => work.close().then(() => process.exit(0))));
