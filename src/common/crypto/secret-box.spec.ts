import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, with a fresh nonce each time', () => {
    const a = box.seal('svc_ntf_secret');
    const b = box.seal('svc_ntf_secret');
    expect(a).not.toBe(b);
    expect(a).not.toContain('svc_ntf_secret');
    expect(box.open(a)).toBe('svc_ntf_secret');
    expect(box.open(b)).toBe('svc_ntf_secret');
  });

  it('refuses a changed value or another key', () => {
    const sealed = box.seal('hello');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('jello').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    expect(() => box.open('plain')).toThrow('not a sealed value');
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow('32 bytes');
  });
});
