import type { Request, Response } from 'express';

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
 * Writes the SDK's answer. Stateless serving ends every stream with its response, so the body is
 * read whole (an SSE body too) and written once.
 */
export async function writeWebResponse(res: Response, answer: globalThis.Response): Promise<void> {
  res.status(answer.status);
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  res.end(Buffer.from(await answer.arrayBuffer()));
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
