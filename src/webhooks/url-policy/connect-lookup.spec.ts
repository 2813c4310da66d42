import type { LookupAddress } from 'node:dns';
import { createPublicOnlyLookup, LookupFunction, NonPublicAddressError } from './connect-lookup';

function stubbed(records: Record<string, string[]>, allowInsecureUrls = false): LookupFunction {
  return createPublicOnlyLookup({
    allowInsecureUrls,
    lookup: (hostname, _options, callback) => {
      const addresses = records[hostname];
      if (!addresses) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      callback(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    },
  });
}

function run(lookup: LookupFunction, host: string, all = false): Promise<{ address: string | LookupAddress[]; family?: number }> {
  return new Promise((resolve, reject) =>
    lookup(host, { all }, (error, address, family) => (error ? reject(error) : resolve({ address, family }))),
  );
}

const RECORDS = {
  'public.example.net': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'private.example.net': ['10.0.0.1'],
  'mapped.example.net': ['::ffff:127.0.0.1'],
  'mixed.example.net': ['93.184.215.14', '192.168.1.10'],
  'metadata.example.net': ['169.254.169.254'],
};

describe('publicOnlyLookup', () => {
  const lookup = stubbed(RECORDS);

  it('answers the first public address, as net.connect asks', async () => {
    expect(await run(lookup, 'public.example.net')).toEqual({ address: '93.184.215.14', family: 4 });
  });

  it('answers the whole list when asked for all (happy eyeballs)', async () => {
    const { address } = await run(lookup, 'public.example.net', true);
    expect(address).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
  });

  it.each([
    ['private.example.net', '10.0.0.1'],
    ['mapped.example.net', '::ffff:127.0.0.1'],
    ['mixed.example.net', '192.168.1.10'],
    ['metadata.example.net', '169.254.169.254'],
  ])('refuses %s, naming %s', async (host, address) => {
    const error = await run(lookup, host).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NonPublicAddressError);
    expect(error).toMatchObject({
      code: 'ERR_WEBHOOK_NON_PUBLIC_ADDRESS',
      message: `${host} resolves to ${address}, which is not a public address; the webhook was not sent.`,
    });
  });

  it('passes resolver errors through', async () => {
    await expect(run(lookup, 'nowhere.example.net')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('lets every address through when insecure URLs are allowed', async () => {
    expect(await run(stubbed(RECORDS, true), 'private.example.net')).toEqual({ address: '10.0.0.1', family: 4 });
  });

  it('refuses loopback through the real resolver', async () => {
    const real = createPublicOnlyLookup({ allowInsecureUrls: false });
    await expect(run(real, 'localhost')).rejects.toBeInstanceOf(NonPublicAddressError);
  });
});
