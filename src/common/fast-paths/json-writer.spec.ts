import express from 'express';
import request from 'supertest';
import { writeBytes, writeJson } from './json-writer';

const payload = { data: { name: 'Ünïcode 😀', items: [1, 2, 3], nothing: null }, error: null };

/** The same answer through Express's own res.json (/express) and through writeJson (/ours). */
function app(status = 200): express.Express {
  const server = express();
  server.get('/express', (_req, res) => void res.status(status).json(payload));
  server.get('/ours', (_req, res) => void writeJson(res, status, payload));
  server.get('/tagged', (_req, res) => {
    res.setHeader('ETag', '"mine"');
    writeJson(res, status, payload);
  });
  return server;
}

const CONTENT_HEADERS = ['content-type', 'content-length', 'etag'];

describe('writeJson', () => {
  it("writes the bytes and content headers Express's res.json writes", async () => {
    const server = app();
    const [theirs, ours] = await Promise.all([request(server).get('/express'), request(server).get('/ours')]);
    expect(ours.status).toBe(200);
    expect(ours.text).toBe(theirs.text);
    expect(JSON.parse(ours.text)).toEqual(payload);
    for (const header of CONTENT_HEADERS) expect(ours.headers[header]).toBe(theirs.headers[header]);
    expect(ours.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(ours.headers.etag).toMatch(/^W\/"/);
  });

  it('answers a matching If-None-Match with 304 and no body, and a stale one in full', async () => {
    const server = app();
    const first = await request(server).get('/ours');
    const fresh = await request(server).get('/ours').set('If-None-Match', first.headers.etag);
    expect(fresh.status).toBe(304);
    expect(fresh.text).toBe('');
    expect(fresh.headers['content-type']).toBeUndefined();
    const stale = await request(server).get('/ours').set('If-None-Match', 'W/"0-other"');
    expect(stale.status).toBe(200);
    expect(stale.text).toBe(first.text);
  });

  it('never turns an error into 304, whatever the validator says', async () => {
    const server = app(404);
    const first = await request(server).get('/ours');
    const again = await request(server).get('/ours').set('If-None-Match', first.headers.etag);
    expect(again.status).toBe(404);
    expect(again.text).toBe(first.text);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const server = app();
    const [get, head] = await Promise.all([request(server).get('/ours'), request(server).head('/ours')]);
    expect(head.status).toBe(200);
    expect(head.text).toBeUndefined();
    for (const header of CONTENT_HEADERS) expect(head.headers[header]).toBe(get.headers[header]);
  });

  it('keeps an ETag the route set itself', async () => {
    const answer = await request(app()).get('/tagged');
    expect(answer.headers.etag).toBe('"mine"');
    expect((await request(app()).get('/tagged').set('If-None-Match', '"mine"')).status).toBe(304);
  });
});

describe('writeBytes', () => {
  const TYPES = [
    'text/html; charset=utf-8',
    'application/json; charset=utf-8',
    'application/rss+xml; charset=utf-8',
    'application/atom+xml; charset=utf-8',
    'application/feed+json; charset=utf-8',
  ];
  const text = '<p>Ünïcode 😀 — a page, a feed</p>'.repeat(40);

  /** The same string through Express's res.type().send() (/express) and as bytes through writeBytes (/ours). */
  function bytesApp(type: string, etag?: string): express.Express {
    const server = express();
    const tag = (res: express.Response) => etag && res.setHeader('ETag', etag);
    server.get('/express', (_req, res) => {
      tag(res);
      res.status(200).type(type).send(text);
    });
    server.get('/ours', (_req, res) => {
      tag(res);
      writeBytes(res, 200, type, Buffer.from(text, 'utf8'));
    });
    return server;
  }

  it.each(TYPES)("writes what Express's res.send writes for a string sent as %s", async (type) => {
    for (const etag of [undefined, '"strong-tag"']) {
      const server = bytesApp(type, etag);
      const [theirs, ours] = await Promise.all([
        request(server).get('/express').buffer(true).parse(rawBody),
        request(server).get('/ours').buffer(true).parse(rawBody),
      ]);
      expect(ours.status).toBe(200);
      expect((ours.body as Buffer).equals(theirs.body as Buffer)).toBe(true);
      for (const header of CONTENT_HEADERS) expect(ours.headers[header]).toBe(theirs.headers[header]);
      const [theirs304, ours304] = await Promise.all([
        request(server).get('/express').set('If-None-Match', theirs.headers.etag),
        request(server).get('/ours').set('If-None-Match', ours.headers.etag),
      ]);
      expect([ours304.status, ours304.headers['content-type']]).toEqual([theirs304.status, theirs304.headers['content-type']]);
      expect(ours304.status).toBe(304);
    }
  });
});

/** The body as the bytes received, whatever the content type (supertest hands the parser the node response). */
function rawBody(res: unknown, done: (error: Error | null, body: Buffer) => void): void {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}
