import { generateKeyPairSync, KeyObject } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import jwt from 'jsonwebtoken';

export interface TokenOptions {
  sub: unknown;
  email?: unknown;
  expiresInSeconds?: number;
  /** Leave out the `exp` claim. */
  noExpiry?: boolean;
  issuer?: string;
  audience?: string;
  /** Sign with a key the key set does not contain. */
  foreignKey?: boolean;
  /** Sign with the provider's key but name another `kid` in the header. */
  keyId?: string;
  /** Sign with the second key, which the key set holds only after `publishSecondKey()`. */
  secondKey?: boolean;
  algorithm?: 'RS256' | 'HS256';
  /** Issue time (iat) this many seconds from now; now when left out. */
  issuedInSeconds?: number;
  /** A not-before claim (nbf) this many seconds from now; none when left out. */
  notBeforeInSeconds?: number;
}

export interface IdentityProviderOptions {
  /** Accept connections on the key-set endpoint and never answer (a hung key server). */
  silent?: boolean;
}

/** A local identity provider: a JWKS endpoint and RS256 tokens, for the dashboard tests. */
export class TestIdentityProvider {
  readonly issuer = 'https://id.launch.test/';
  /** How many times the key set was requested. */
  fetches = 0;
  private readonly keyId = 'test-key-1';
  private readonly secondKeyId = 'test-key-2';
  private readonly privateKey: KeyObject;
  private readonly secondPrivateKey: KeyObject;
  private readonly foreignPrivateKey: KeyObject;
  private readonly jwks: object[];
  private readonly secondJwk: object;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    keys: { privateKey: KeyObject; secondPrivateKey: KeyObject; foreignPrivateKey: KeyObject; jwks: object[]; secondJwk: object },
  ) {
    this.privateKey = keys.privateKey;
    this.secondPrivateKey = keys.secondPrivateKey;
    this.foreignPrivateKey = keys.foreignPrivateKey;
    this.jwks = keys.jwks;
    this.secondJwk = keys.secondJwk;
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(options: IdentityProviderOptions = {}): Promise<TestIdentityProvider> {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const second = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwks: object[] = [{ ...publicKey.export({ format: 'jwk' }), kid: 'test-key-1', alg: 'RS256', use: 'sig' }];
    const secondJwk = { ...second.publicKey.export({ format: 'jwk' }), kid: 'test-key-2', alg: 'RS256', use: 'sig' };
    let provider: TestIdentityProvider | null = null;
    const server = createServer((_req, res) => {
      if (provider) provider.fetches += 1;
      if (options.silent) return; // never answers; closed by close()
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: jwks }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    provider = new TestIdentityProvider(server, {
      privateKey,
      secondPrivateKey: second.privateKey,
      foreignPrivateKey: foreign.privateKey,
      jwks,
      secondJwk,
    });
    return provider;
  }

  get jwksUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/.well-known/jwks.json`;
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return { JWT_JWKS_URL: this.jwksUrl, JWT_ISSUER: this.issuer, ...extra };
  }

  /** Adds the second key to the key set, as a provider does before it rotates to a new key. */
  publishSecondKey(): void {
    this.jwks.push(this.secondJwk);
  }

  token(options: TokenOptions): string {
    const payload: Record<string, unknown> = { sub: options.sub };
    if (options.email !== undefined) payload.email = options.email;
    if (options.audience) payload.aud = options.audience;
    const now = Math.floor(Date.now() / 1000);
    if (options.issuedInSeconds !== undefined) payload.iat = now + options.issuedInSeconds;
    if (options.notBeforeInSeconds !== undefined) payload.nbf = now + options.notBeforeInSeconds;
    if (options.algorithm === 'HS256')
      return jwt.sign(payload, 'shared-secret', { algorithm: 'HS256', keyid: this.keyId, issuer: this.issuer });
    if (!options.noExpiry) payload.exp = now + (options.expiresInSeconds ?? 600);
    const key = options.foreignKey ? this.foreignPrivateKey : options.secondKey ? this.secondPrivateKey : this.privateKey;
    return jwt.sign(payload, key, {
      algorithm: 'RS256',
      keyid: options.keyId ?? (options.secondKey ? this.secondKeyId : this.keyId),
      issuer: options.issuer ?? this.issuer,
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
