import type { Request, Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

/** The Express request as the web-standard Request the SDK's handler serves (the body is already parsed). */
export function toWebRequest(req: Request): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((item) => headers.append(name, item));
    else if (value !== undefined) headers.set(name, value);
  }
  headers.delete('content-length');
  headers.delete('content-encoding');
  const url = `http://${req.headers.host ?? 'localhost'}${req.originalUrl}`;
  const hasBody = req.method === 'POST' && req.body !== undefined;
  return new Request(url, { method: req.method, headers, body: hasBody ? JSON.stringify(req.body) : undefined });
}

/**
 * Writes the SDK's answer as it comes: a JSON body, or an SSE stream (the body of a call that
 * reports progress, or a subscription stream), which ends when the SDK ends it or the client goes.
 */
export async function writeWebResponse(res: Response, answer: globalThis.Response): Promise<void> {
  res.status(answer.status);
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  if (!answer.body) {
    res.end();
    return;
  }
  const body = Readable.fromWeb(answer.body as NodeReadableStream<Uint8Array>);
  await pipeline(body, res).catch(() => undefined);
}

/** The JSON-RPC method and, for `tools/call`, the tool name of a request body (the log line names them). */
export function calledTool(body: unknown): string | null {
  const messages = Array.isArray(body) ? body : [body];
  for (const message of messages) {
    const { method, params } = (message ?? {}) as { method?: unknown; params?: { name?: unknown } };
    if (method === 'tools/call' && typeof params?.name === 'string') return params.name.slice(0, 64);
  }
  return null;
}
