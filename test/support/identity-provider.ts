import { generateKeyPairSync, KeyObject } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import jwt from 'jsonwebtoken';

export interface TokenOptions {
  sub: string;
  email?: string;
  expiresInSeconds?: number;
  issuer?: string;
  /** Sign with a key the key set does not contain. */
  foreignKey?: boolean;
  algorithm?: 'RS256' | 'HS256';
}

/** A local identity provider: a JWKS endpoint and RS256 tokens, for the dashboard tests. */
export class TestIdentityProvider {
  readonly issuer = 'https://id.launch.test/';
  private readonly keyId = 'test-key-1';
  private readonly privateKey: KeyObject;
  private readonly foreignPrivateKey: KeyObject;

  private constructor(
    private readonly server: Server,
    keys: { privateKey: KeyObject; foreignPrivateKey: KeyObject },
  ) {
    this.privateKey = keys.privateKey;
    this.foreignPrivateKey = keys.foreignPrivateKey;
  }

  static async start(): Promise<TestIdentityProvider> {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'test-key-1', alg: 'RS256', use: 'sig' };
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new TestIdentityProvider(server, { privateKey, foreignPrivateKey: foreign.privateKey });
  }

  get jwksUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/.well-known/jwks.json`;
  }

  env(): Record<string, string> {
    return { JWT_JWKS_URL: this.jwksUrl, JWT_ISSUER: this.issuer };
  }

  token(options: TokenOptions): string {
    const payload: Record<string, unknown> = { sub: options.sub };
    if (options.email) payload.email = options.email;
    if (options.algorithm === 'HS256')
      return jwt.sign(payload, 'shared-secret', { algorithm: 'HS256', keyid: this.keyId, issuer: this.issuer });
    return jwt.sign(payload, options.foreignKey ? this.foreignPrivateKey : this.privateKey, {
      algorithm: 'RS256',
      keyid: this.keyId,
      issuer: options.issuer ?? this.issuer,
      expiresIn: options.expiresInSeconds ?? 600,
    });
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
  }
}
