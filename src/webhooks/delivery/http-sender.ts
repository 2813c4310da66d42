import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { isPublicUnicast } from '../url-policy/public-address';
import { publicOnlyLookup } from '../url-policy/connect-lookup';

/** The start of a receiver's answer kept for the delivery log. */
const EXCERPT_LENGTH = 500;
// Enough to fill the excerpt with any multi-byte text; the rest of a long answer is not read.
const READ_LIMIT = 8 * 1024;

export interface HttpOutcome {
  /** The status, or null when no answer came (timeout, refused connection, refused address). */
  status: number | null;
  excerpt: string | null;
  durationMs: number;
  /** Why it failed, for last_error; null on a 2xx. */
  error: string | null;
}

interface HttpSenderOptions {
  timeoutMs: number;
  /** Development and tests only: skips the public-address check at connect time. */
  allowInsecureUrls: boolean;
  userAgent: string;
}

/**
 * The one HTTP client of webhook deliveries: an undici Agent with keep-alive (one pool per
 * receiver origin, reused across deliveries), the public-address check inside the connection's own
 * DNS lookup, and the whole attempt (connect, headers and body) bounded by the timeout. Redirects
 * are never followed: a 3xx is a failure like any other non-2xx (spec: Delivery 1).
 */
export class HttpSender {
  private readonly agent: Agent;
  private closing: Promise<void> | null = null;

  constructor(private readonly options: HttpSenderOptions) {
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 60_000,
      connections: 128,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: options.allowInsecureUrls
        ? { timeout: Math.min(options.timeoutMs, 5_000) }
        : { timeout: Math.min(options.timeoutMs, 5_000), lookup: publicOnlyLookup },
    });
  }

  async post(url: string, body: string, headers: Record<string, string>): Promise<HttpOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const refused = this.options.allowInsecureUrls ? null : refusal(url);
    if (refused) return { status: null, excerpt: null, durationMs: elapsed(), error: refused };
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const response = await request(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'user-agent': this.options.userAgent, ...headers },
        dispatcher: this.agent,
        signal,
      });
      const excerpt = await readExcerpt(response.body);
      const status = response.statusCode;
      const ok = status >= 200 && status < 300;
      return {
        status,
        excerpt,
        durationMs: elapsed(),
        error: ok ? null : `The endpoint answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
      };
    } catch (error) {
      const timedOut = signal.aborted;
      const reason = timedOut ? `No answer within ${this.options.timeoutMs} ms` : describe(error);
      return { status: null, excerpt: null, durationMs: elapsed(), error: reason };
    }
  }

  /** Lets attempts in flight finish, then closes the connections; safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= this.agent.close().catch(() => undefined);
    return this.closing;
  }
}

/**
 * Defense in depth for URLs stored before a rule existed: https only, and no non-public IP literal
 * (a connection to an IP literal skips the DNS lookup, so publicOnlyLookup would never see it).
 */
export function refusal(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Refused: the endpoint URL is not a valid URL';
  }
  if (parsed.protocol !== 'https:') return 'Refused: the endpoint URL must use https://';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !isPublicUnicast(host)) return `Refused: ${host} is not a public address`;
  return null;
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= READ_LIMIT) {
      body.destroy();
      break;
    }
  }
  if (size === 0) return null;
  return Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_LENGTH);
}

// Duck-typed: errors from undici's internals may come from another realm (test VMs), failing instanceof.
function describe(error: unknown): string {
  const err = error as { message?: string; code?: string; name?: string; cause?: { message?: string; code?: string } } | null;
  if (!err || typeof err !== 'object') return `Could not reach the endpoint (${String(error)})`;
  const code = err.cause?.code ?? err.code ?? err.name ?? 'Error';
  const message = err.cause?.message ?? err.message ?? '';
  return `Could not reach the endpoint (${code}: ${message})`;
}
