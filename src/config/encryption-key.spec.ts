import { Logger } from '@nestjs/common';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './app-config';
import { generatedKeyPath, withEncryptionKey } from './encryption-key';

describe('withEncryptionKey', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'launch-key-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('outside production generates a key once into DATA_DIR (owner-only) and reads it on later starts', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const first = withEncryptionKey(loadConfig({ DATA_DIR: dataDir }));
    expect(first.encryptionKey).toHaveLength(32);
    expect(statSync(generatedKeyPath(first)).mode & 0o777).toBe(0o600);
    const second = withEncryptionKey(loadConfig({ DATA_DIR: dataDir }));
    expect(second.encryptionKey).toEqual(first.encryptionKey);
    expect(readFileSync(generatedKeyPath(first), 'utf8')).toBe(first.encryptionKey!.toString('base64'));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain('ENCRYPTION_KEY is not set; generated one in');
    warn.mockRestore();
  });

  it('keeps ENCRYPTION_KEY when set, and never generates one in production', () => {
    const key = Buffer.alloc(32, 9);
    expect(withEncryptionKey(loadConfig({ DATA_DIR: dataDir, ENCRYPTION_KEY: key.toString('base64') })).encryptionKey).toEqual(key);
    // The CLI in production: no key, and no file.
    expect(withEncryptionKey(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' }, { cli: true })).encryptionKey).toBeNull();
    expect(() => statSync(join(dataDir, 'encryption.key'))).toThrow();
  });

  it('refuses a damaged key file instead of sealing with a wrong key', () => {
    writeFileSync(join(dataDir, 'encryption.key'), 'short');
    expect(() => withEncryptionKey(loadConfig({ DATA_DIR: dataDir }))).toThrow('does not hold a 32-byte base64 key');
  });
});
