import { isSameOriginForm } from './same-origin-form.guard';

describe('isSameOriginForm', () => {
  it('accepts a post from a page of the same origin, and a client that names no origin', () => {
    expect(isSameOriginForm({ host: 'localhost:3000', origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' })).toBe(true);
    expect(isSameOriginForm({ host: 'localhost:3000', origin: 'http://localhost:3000' })).toBe(true);
    expect(isSameOriginForm({ host: 'localhost:3000' })).toBe(true);
  });

  it('refuses a post from another site or another origin of this machine', () => {
    expect(isSameOriginForm({ host: 'localhost:3000', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).toBe(false);
    expect(isSameOriginForm({ host: 'localhost:3000', 'sec-fetch-site': 'same-site' })).toBe(false);
    expect(isSameOriginForm({ host: 'localhost:3000', origin: 'http://localhost:5173' })).toBe(false);
    expect(isSameOriginForm({ host: 'localhost:3000', origin: 'null' })).toBe(false);
  });
});
