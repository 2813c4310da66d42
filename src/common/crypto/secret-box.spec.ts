import { randomBytes } from 'node:crypto';
import { SealedValueUnreadable, SecretBox } from './secret-box';

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
    expect(() => box.open(parts.join('.'))).toThrow(SealedValueUnreadable);
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow(SealedValueUnreadable);
    expect(() => box.open('plain')).toThrow('not a sealed value');
    expect(() => box.open('v1.AAAA.!!.??')).toThrow(SealedValueUnreadable);
    expect(box.opens(sealed)).toBe(true);
    expect(new SecretBox(randomBytes(32)).opens(sealed)).toBe(false);
  });

  it('says what failed without the value or the key', () => {
    const key = randomBytes(32);
    const sealed = new SecretBox(key).seal('whsec_topsecret');
    let message = '';
    try {
      box.open(sealed);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('ENCRYPTION_KEY');
    expect(message).not.toContain('topsecret');
    expect(message).not.toContain(sealed.split('.')[3]);
    expect(message).not.toContain(key.toString('base64'));
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow('32 bytes');
  });
});
