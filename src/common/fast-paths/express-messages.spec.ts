import { ExpressAdapter } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { EnvelopeExpressAdapter } from './envelope-reply';

// V8's own test of two objects' hidden classes, reachable once natives syntax is allowed.
setFlagsFromString('--allow-natives-syntax');
const haveSameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

interface Taken {
  req: Request;
  res: Response;
  /** Prototypes as the server constructed them, before Express took the pair. */
  bornWith: [object, object];
}

/**
 * Serves two requests at once through `adapter`'s server and Express, and hands both pairs over
 * while neither response has ended, so that they are compared at the same point of their lives.
 */
async function twoRequestsThrough(adapter: ExpressAdapter): Promise<Taken[]> {
  adapter.initHttpServer({});
  const server = adapter.getHttpServer() as Server;
  const app = adapter.getInstance<import('express').Express>();
  const born = new WeakMap<object, [object, object]>();
  server.prependListener('request', (req, res) => born.set(req, [Object.getPrototypeOf(req), Object.getPrototypeOf(res)]));
  const taken: Taken[] = [];
  let bothIn!: () => void;
  const bothArrived = new Promise<void>((resolve) => (bothIn = resolve));
  const compared = new Promise<void>((resolve) => {
    app.get('/probe', (req: Request, res: Response) => {
      res.locals.seen = true;
      taken.push({ req, res, bornWith: born.get(req)! });
      if (taken.length === 2) bothIn();
      void bothArrived.then(() => {
        setImmediate(() => {
          res.end('ok');
          resolve();
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const answers = await Promise.all([fetch(`http://127.0.0.1:${port}/probe`), fetch(`http://127.0.0.1:${port}/probe`)]);
    await Promise.all(answers.map((answer) => answer.text()));
    await compared;
    return taken;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('expressMessageClasses (through EnvelopeExpressAdapter)', () => {
  it('constructs requests and responses with the prototypes Express gives them', async () => {
    const adapter = new EnvelopeExpressAdapter();
    const [first] = await twoRequestsThrough(adapter);
    const app = adapter.getInstance<import('express').Express>();
    expect(first.bornWith[0]).toBe(app.request);
    expect(first.bornWith[1]).toBe(app.response);
    expect(first.req.app).toBe(app);
  });

  it('lets every response and every request share its hidden class with the others', async () => {
    const [a, b] = await twoRequestsThrough(new EnvelopeExpressAdapter());
    expect(haveSameHiddenClass(a.res, b.res)).toBe(true);
    expect(haveSameHiddenClass(a.req, b.req)).toBe(true);
  });

  it("is needed: Nest's own server leaves each response a hidden class of its own", async () => {
    const [a, b] = await twoRequestsThrough(new ExpressAdapter());
    expect(haveSameHiddenClass(a.res, b.res)).toBe(false);
  });
});
