import type { Response } from 'supertest';
import type { Cluster } from '../support/cluster';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const range = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

/** Reads until `done`, every 250 ms, failing with the last value after `withinMs`. */
export async function poll<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, withinMs: number): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${withinMs / 1000} s`);
    await sleep(250);
  }
}

const NO_CONNECTION_LEFT = /too many clients/;

/**
 * `cluster.sql`, tried again while the PostgreSQL server has no connection to spare: each call
 * opens its own, and parallel suites on the same server may hold them all for a moment.
 */
export async function sql<T = Record<string, unknown>>(cluster: Cluster, text: string, params: unknown[] = []): Promise<T[]> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await cluster.sql<T>(text, params);
    } catch (error) {
      if (attempt === 20 || !NO_CONNECTION_LEFT.test(String(error))) throw error;
      await sleep(500);
    }
  }
}

/**
 * Sends a request until it is not refused with 503 (a busy database refuses part of a burst before
 * doing anything), as a client would; `send` must carry an Idempotency-Key so that a retry never
 * does the work twice.
 */
export async function untilAccepted(send: () => PromiseLike<Response>, attempts = 10): Promise<Response> {
  for (let attempt = 1; ; attempt += 1) {
    const res = await send();
    if (res.status !== 503 || attempt === attempts) return res;
    await sleep(200 * attempt);
  }
}

/**
 * `cluster.createProject`, tried again while the PostgreSQL server has no connection to spare: the
 * CLI opens its own, and parallel suites on the same server may hold them all for a moment.
 */
export async function createProject(cluster: Cluster, name: string): Promise<{ projectId: string; secretKey: string }> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await cluster.createProject('scale', name);
    } catch (error) {
      if (attempt === 10 || !NO_CONNECTION_LEFT.test(String(error))) throw error;
      await sleep(1_000);
    }
  }
}

/** Webhooks to a receiver on this machine, with retries and a timeout a test can wait out. */
export const LOOPBACK_WEBHOOKS_ENV = {
  WEBHOOK_ALLOW_INSECURE_URLS: 'true',
  WEBHOOK_RETRY_DELAYS: '200ms,500ms,1s',
  WEBHOOK_TIMEOUT_MS: '3000',
} as const;
