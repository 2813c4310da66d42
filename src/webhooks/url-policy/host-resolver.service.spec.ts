import { promises as dns } from 'node:dns';
import { ApiError } from '../../common/errors/api-error';
import { WebhookHostResolver } from './host-resolver.service';

function failWith(code: string): void {
  jest.spyOn(dns, 'lookup').mockRejectedValue(Object.assign(new Error(`getaddrinfo ${code} hooks.example.com`), { code }));
}

describe('WebhookHostResolver', () => {
  const resolver = new WebhookHostResolver();
  afterEach(() => jest.restoreAllMocks());

  it('answers every address of the name', async () => {
    jest.spyOn(dns, 'lookup').mockResolvedValue([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ] as never);
    await expect(resolver.resolve('hooks.example.com')).resolves.toEqual(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
  });

  it('reads a name that does not exist as no address (the URL is refused)', async () => {
    for (const code of ['ENOTFOUND', 'ENODATA']) {
      failWith(code);
      await expect(resolver.resolve('hooks.example.com')).resolves.toEqual([]);
    }
  });

  it('reads a resolver that could not answer as a retryable 503 naming the field, not as a bad URL', async () => {
    for (const code of ['EAI_AGAIN', 'ESERVFAIL', 'ETIMEOUT', 'ECONNREFUSED']) {
      failWith(code);
      const error = (await resolver.resolve('hooks.example.com').catch((thrown: unknown) => thrown)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        status: 503,
        param: 'url',
        message: `The hostname hooks.example.com could not be resolved right now (${code}); nothing was saved.`,
        headers: { 'Retry-After': '5' },
      });
      expect(error.remediation).toMatch(/^DNS did not answer for now: retry in 5 seconds/);
    }
  });
});
