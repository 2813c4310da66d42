import { type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../src/common/crypto/secret-box';
import { newId } from '../../src/common/ids/ids';
import { WebhookEndpointEntity, type WebhookFormat } from '../../src/webhooks/entities/webhook-endpoint.entity';
import { ProjectsService } from '../../src/projects/projects.service';
import { WebhookDeliveryEntity } from '../../src/webhooks/entities/webhook-delivery.entity';
import type { TestApp } from '../support/test-app';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  json: Record<string, unknown>;
}

type Responder = (req: ReceivedRequest, res: ServerResponse) => void | Promise<void>;

/** A local webhook receiver on 127.0.0.1 that records every request; answers 200 unless told. */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  private responder: Responder = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  };
  private waiters: { count: number; resolve: () => void }[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<Receiver> {
    let receiver: Receiver | null = null;
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => void receiver!.handle(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    receiver = new Receiver(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  respond(responder: Responder): void {
    this.responder = responder;
  }

  answer(status: number, body = '', headers: Record<string, string> = {}): void {
    this.respond((_req, res) => {
      res.writeHead(status, headers).end(body);
    });
  }

  /** Resolves once `count` requests arrived in total. */
  waitFor(count: number, timeoutMs = 10_000): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`receiver got ${this.requests.length} of ${count} requests`)), timeoutMs);
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  reset(): void {
    this.requests.length = 0;
    this.answer(200, 'ok');
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, rawBody: string, res: ServerResponse): Promise<void> {
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(rawBody) as Record<string, unknown>;
    } catch {
      // recorded as is
    }
    const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawBody, json };
    this.requests.push(received);
    await this.responder(received, res);
    this.waiters = this.waiters.filter((waiter) => {
      if (this.requests.length < waiter.count) return true;
      waiter.resolve();
      return false;
    });
  }
}

export function boxOf(t: TestApp): SecretBox {
  return new SecretBox(t.config.encryptionKey!);
}

/**
 * An endpoint row written directly (the endpoints routes are another helper's): URL and secret
 * sealed as the real create does.
 */
export async function insertEndpoint(
  t: TestApp,
  projectId: string,
  options: {
    url: string;
    events?: string[];
    format?: WebhookFormat;
    secret?: string;
    previousSecret?: string;
    status?: 'enabled' | 'disabled';
  },
): Promise<{ endpoint: WebhookEndpointEntity; secret: string }> {
  const box = boxOf(t);
  const secret = options.secret ?? `whsec_${randomBytes(24).toString('base64url')}`;
  const now = new Date();
  const endpoint = Object.assign(new WebhookEndpointEntity(), {
    id: newId('we'),
    projectId,
    urlCiphertext: box.seal(options.url),
    urlMasked: options.url.replace(/\/[^/]*$/, '/…'),
    events: options.events ?? ['*'],
    format: options.format ?? 'json',
    status: options.status ?? 'enabled',
    disabledReason: null,
    disabledAt: null,
    consecutiveFailures: 0,
    secretCiphertext: box.seal(secret),
    previousSecretCiphertext: options.previousSecret ? box.seal(options.previousSecret) : null,
    previousSecretValidUntil: options.previousSecret ? new Date(now.getTime() + 24 * 3_600_000) : null,
    createdAt: now,
    updatedAt: now,
  });
  // As the real create: the API key cache's copy of the project says whether it has an endpoint.
  await t.db.transaction(async (em) => {
    await em.insert(WebhookEndpointEntity, endpoint);
    await t.get(ProjectsService).announceChange(em, projectId);
  });
  return { endpoint, secret };
}

export function deliveriesOf(t: TestApp, endpointId: string): Promise<WebhookDeliveryEntity[]> {
  return t.db.manager.find(WebhookDeliveryEntity, { where: { endpointId }, order: { createdAt: 'ASC', id: 'ASC' } });
}

export function endpointRow(t: TestApp, id: string): Promise<WebhookEndpointEntity> {
  return t.db.manager.findOneByOrFail(WebhookEndpointEntity, { id });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` passes (deliveries are asynchronous by design). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(50);
    }
  }
}
