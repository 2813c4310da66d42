import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';

/**
 * A stored value that this key cannot open: sealed under another ENCRYPTION_KEY, or changed since.
 * Its message names neither the value nor the key. At request time it answers 503
 * SEALED_VALUE_UNREADABLE (common/http/error-response.ts); a job records it as its failure.
 */
export class SealedValueUnreadable extends Error {
  override readonly name = 'SealedValueUnreadable';

  constructor(reason: string) {
    super(`A stored secret cannot be decrypted with ENCRYPTION_KEY (${reason})`);
  }
}

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

  /** Throws SealedValueUnreadable when the value was not sealed with this key or was changed. */
  open(sealed: string): string {
    const [version, nonce, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || !nonce || !tag || ciphertext === undefined) throw new SealedValueUnreadable('not a sealed value');
    try {
      const decipher = createDecipheriv(ALGORITHM, this.key, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      // GCM's tag check cannot tell another key from a changed value; neither can we.
      throw new SealedValueUnreadable('sealed under another key, or damaged');
    }
  }

  /** Whether this key opens the value. */
  opens(sealed: string): boolean {
    try {
      this.open(sealed);
      return true;
    } catch (error) {
      if (error instanceof SealedValueUnreadable) return false;
      throw error;
    }
  }
}
