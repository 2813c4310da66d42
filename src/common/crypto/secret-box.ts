import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';

/**
 * Secrets the service must read back (notification signing secrets, chat webhook URLs, processor
 * keys), encrypted at rest with ENCRYPTION_KEY: AES-256-GCM, a fresh 12-byte nonce per value, the
 * 16-byte tag checked on open. Stored as "v1.<nonce>.<tag>.<ciphertext>" in base64url, so a
 * future key or algorithm can sit next to this one.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('ENCRYPTION_KEY must be 32 bytes (base64)');
  }

  seal(plaintext: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, this.key, nonce);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, nonce, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** Throws when the value was not sealed with this key or was changed. */
  open(sealed: string): string {
    const [version, nonce, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || !nonce || !tag || ciphertext === undefined) throw new Error('not a sealed value');
    const decipher = createDecipheriv(ALGORITHM, this.key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
