import { publicOnlyLookup } from '../url-policy/connect-lookup';
import { refusal } from './http-sender';

describe('webhook HTTP client rules', () => {
  it('refuses non-https URLs and non-public IP literals before connecting', () => {
    expect(refusal('https://hooks.example.com/x')).toBeNull();
    expect(refusal('https://8.8.8.8/x')).toBeNull();
    expect(refusal('http://hooks.example.com/x')).toMatch(/https/);
    expect(refusal('https://127.0.0.1/x')).toMatch(/127\.0\.0\.1 is not a public address/);
    expect(refusal('https://[::1]/x')).toMatch(/::1 is not a public address/);
    expect(refusal('https://[::ffff:10.0.0.1]/x')).toMatch(/not a public address/);
    expect(refusal('not a url')).toMatch(/not a valid URL/);
  });

  it('the connect-time lookup refuses names that resolve to non-public addresses', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      publicOnlyLookup('localhost', { all: true }, (err) => resolve(err)),
    );
    expect(error?.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1), which is not a public address/);
  });
});
