import { AddressInfo, Server, Socket, connect, createServer } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL or Redis that a fault test can make misbehave:
 * - `pause()`: a black hole. Connections are still accepted, but nothing is forwarded either way
 *   (bytes wait, as they would on a partitioned network, and flow again on `resume()`);
 * - `close()`: every connection is cut and the port refuses new ones until `reopen()`.
 * With `latencyMs`, every answer from the target reaches the client that much later, in order: a
 * database across a slow network, so that each statement holds its pooled connection that long.
 */
export interface TcpProxy {
  readonly port: number;
  /** `url` (postgres://… or redis://…) with its host and port replaced by the proxy's. */
  rewrite(url: string): string;
  /** From now on, answers from the target reach clients this much later (raise it only: bytes keep their order). */
  setLatency(ms: number): void;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
  reopen(): Promise<void>;
  /** Connections the proxy has accepted since it started. */
  readonly accepted: number;
}

interface Pair {
  client: Socket;
  upstream: Socket | null;
}

export interface TcpProxyOptions {
  latencyMs?: number;
}

export async function startTcpProxy(target: { host: string; port: number }, options: TcpProxyOptions = {}): Promise<TcpProxy> {
  let latencyMs = options.latencyMs ?? 0;
  const pairs = new Set<Pair>();
  let paused = false;
  let accepted = 0;
  let server: Server;

  const link = (pair: Pair) => {
    const upstream = connect(target.port, target.host);
    pair.upstream = upstream;
    pair.client.pipe(upstream);
    // Timers of one duration fire in the order they were set, so the bytes keep their order.
    upstream.on('data', (chunk: Buffer) => {
      if (latencyMs > 0) setTimeout(() => pair.client.write(chunk), latencyMs);
      else pair.client.write(chunk);
    });
    const end = () => {
      pair.client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    upstream.on('error', end).on('close', end);
  };

  const onConnection = (client: Socket) => {
    accepted += 1;
    const pair: Pair = { client, upstream: null };
    pairs.add(pair);
    client
      .on('error', () => undefined)
      .on('close', () => {
        pair.upstream?.destroy();
        pairs.delete(pair);
      });
    if (paused) client.pause();
    else link(pair);
  };

  const listen = (port: number) =>
    new Promise<Server>((resolve, reject) => {
      const next = createServer(onConnection);
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve(next));
    });

  server = await listen(0);
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    get accepted() {
      return accepted;
    },
    rewrite(url: string) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    setLatency(ms: number) {
      latencyMs = ms;
    },
    pause() {
      paused = true;
      for (const pair of pairs) {
        pair.client.pause();
        pair.upstream?.pause();
      }
    },
    resume() {
      paused = false;
      for (const pair of pairs) {
        if (!pair.upstream) link(pair);
        pair.client.resume();
        pair.upstream?.resume();
      }
    },
    async close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async reopen() {
      server = await listen(port);
    },
  };
}
