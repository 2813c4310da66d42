import { customDomainRoute } from './custom-domain-routes';

const SLUG = 'acme';
const ENTRY = 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M';

describe('customDomainRoute', () => {
  it.each([
    ['/', '/changelog/acme'],
    [`/${ENTRY}`, `/changelog/acme/${ENTRY}`],
    ['/acme', '/changelog/acme'],
    [`/acme/${ENTRY}`, `/changelog/acme/${ENTRY}`],
    ['/rss.xml', '/public/changelog/acme/rss.xml'],
    ['/feed.rss', '/public/changelog/acme/rss.xml'],
    ['/atom.xml', '/public/changelog/acme/atom.xml'],
    ['/feed.atom', '/public/changelog/acme/atom.xml'],
    ['/feed.json', '/public/changelog/acme/feed.json'],
    ['/changelog.json', '/public/changelog/acme'],
    ['/changelog/acme', '/changelog/acme'],
    [`/changelog/acme/${ENTRY}`, `/changelog/acme/${ENTRY}`],
    ['/public/changelog/acme', '/public/changelog/acme'],
    ['/public/changelog/acme/rss.xml', '/public/changelog/acme/rss.xml'],
    ['/public/changelog/acme/atom.xml', '/public/changelog/acme/atom.xml'],
    ['/public/changelog/acme/feed.json', '/public/changelog/acme/feed.json'],
    ['/w/acme', '/w/acme'],
  ])('serves GET %s from %s', (path, route) => {
    expect(customDomainRoute('GET', path, SLUG)).toBe(route);
    expect(customDomainRoute('HEAD', path, SLUG)).toBe(route);
  });

  it.each(['/public/changelog/acme/seen', `/public/changelog/acme/entries/${ENTRY}/click`, '/w/acme'])('lets POST %s through', (path) => {
    expect(customDomainRoute('POST', path, SLUG)).toBe(path);
  });

  it.each([
    '/docs',
    '/docs/',
    '/openapi.json',
    '/v1/_health',
    '/dev/mail',
    '/favicon.ico',
    '/constructor',
    '/__proto__',
    '/other',
    '/changelog/other',
    `/changelog/other/${ENTRY}`,
    '/public/changelog/other',
    '/public/changelog/other/rss.xml',
    '/w/other',
    '/other/rss.xml',
    '/acme/',
    '/Acme',
    '/W/acme',
    '/w/acme/',
    '/%61cme',
    '//acme',
    '/acme/not-an-entry',
    `/${ENTRY.toLowerCase()}`,
    '/public/changelog/acme/seen',
    `/changelog/acme/${ENTRY}/x`,
  ])('refuses GET %s', (path) => {
    expect(customDomainRoute('GET', path, SLUG)).toBeNull();
  });

  it('refuses every other method and every other post', () => {
    for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS']) expect(customDomainRoute(method, '/w/acme', SLUG)).toBeNull();
    for (const path of [
      '/',
      '/w/other',
      '/public/changelog/other/seen',
      '/v1/waitlist/signups',
      `/public/changelog/acme/entries/x/click`,
    ]) {
      expect(customDomainRoute('POST', path, SLUG)).toBeNull();
    }
  });
});
