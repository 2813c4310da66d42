import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
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
  'compatible.example.net': ['::93.184.215.14'],
  'sixtofour.example.net': ['2002:a00:1::1'],
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
    ['compatible.example.net', '::93.184.215.14'],
    ['sixtofour.example.net', '2002:a00:1::1'],
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

describe('publicOnlyLookup inside undici', () => {
  // The way the delivery side uses it: the connection's own lookup, so the address checked is the one connected to.
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  async function post(lookup: LookupFunction): Promise<unknown> {
    const agent = new Agent({ connect: { lookup } });
    try {
      const res = await request(`http://localhost:${port}/hook`, { method: 'POST', body: '{}', dispatcher: agent });
      return await res.body.text();
    } catch (error) {
      return error;
    } finally {
      await agent.close();
    }
  }

  it('refuses to connect to a loopback address', async () => {
    const error = await post(createPublicOnlyLookup({ allowInsecureUrls: false }));
    expect(error).toMatchObject({ code: 'ERR_WEBHOOK_NON_PUBLIC_ADDRESS', message: expect.stringContaining('localhost resolves to') });
  });

  it('connects when insecure URLs are allowed', async () => {
    expect(await post(createPublicOnlyLookup({ allowInsecureUrls: true }))).toBe('ok');
  });
});
