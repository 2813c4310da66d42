import { hostnameOf, isLocalRequest, isLoopback, type PeerRequest } from './development-aid.guard';

const OURS = ['launch.test'];
const request = (remoteAddress: string | undefined, headers: PeerRequest['headers']): PeerRequest => ({
  socket: { remoteAddress },
  headers,
});

describe('isLoopback', () => {
  it('accepts the loopback addresses only', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(address)).toBe(true);
    for (const address of ['10.0.0.5', '::ffff:192.168.1.2', '2001:db8::1', '', undefined]) expect(isLoopback(address)).toBe(false);
  });
});

describe('hostnameOf', () => {
  it('reads the name of a Host header without port and brackets', () => {
    expect(hostnameOf('LocalHost:3000')).toBe('localhost');
    expect(hostnameOf('[::1]:3000')).toBe('::1');
    expect(hostnameOf('127.0.0.1')).toBe('127.0.0.1');
    expect(hostnameOf('bad host/x')).toBeNull();
    expect(hostnameOf(undefined)).toBeNull();
  });
});

describe('isLocalRequest', () => {
  it('accepts a loopback peer that names this machine or our host', () => {
    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'launch.test']) {
      expect(isLocalRequest(request('::ffff:127.0.0.1', { host }), OURS)).toBe(true);
    }
  });

  it('refuses a remote peer, a request a proxy passed on, and any other name', () => {
    expect(isLocalRequest(request('203.0.113.9', { host: 'localhost:3000' }), OURS)).toBe(false);
    for (const header of ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip']) {
      expect(isLocalRequest(request('127.0.0.1', { host: 'localhost:3000', [header]: '127.0.0.1' }), OURS)).toBe(false);
    }
    for (const host of ['rebind.example', 'localhost.example', 'news.customer.example', '10.0.0.5:3000', undefined]) {
      expect(isLocalRequest(request('127.0.0.1', { host }), OURS)).toBe(false);
    }
  });
});
