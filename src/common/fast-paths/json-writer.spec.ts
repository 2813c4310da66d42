import express from 'express';
import request from 'supertest';
import { writeJson } from './json-writer';

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
