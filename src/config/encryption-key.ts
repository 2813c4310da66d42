import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AppConfig, ConfigError } from './app-config';

/** Where the key generated for a development installation lives. */
export function generatedKeyPath(config: Pick<AppConfig, 'dataDir'>): string {
  return join(config.dataDir, 'encryption.key');
}

/**
 * The configuration with its ENCRYPTION_KEY. Unset outside production, a key is generated once into
 * DATA_DIR (mode 0600, with a warning) and read from there on later starts, so restarts can still
 * decrypt. With NODE_ENV=production nothing is generated: the server and the worker have already
 * refused to start without the variable (app-config.ts), and the CLI goes on without a key.
 */
export function withEncryptionKey(config: AppConfig): AppConfig {
  if (config.encryptionKey || config.production) return config;
  const path = generatedKeyPath(config);
  if (!existsSync(path)) {
    mkdirSync(config.dataDir, { recursive: true });
    // 'wx': of two processes starting at once on a new DATA_DIR, the second keeps the first's key.
    try {
      writeFileSync(path, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
      new Logger('Config').warn(`ENCRYPTION_KEY is not set; generated one in ${path}. Set ENCRYPTION_KEY in production.`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new ConfigError([`${path} does not hold a 32-byte base64 key: restore it, or set ENCRYPTION_KEY`]);
  return Object.freeze({ ...config, encryptionKey: key });
}
