import { linksInMail } from './mail-links';
import { describeKeptMail } from './mail-transport';

describe('linksInMail', () => {
  it('finds the links of the text body without the punctuation that ends a sentence', () => {
    const text = 'Confirm: https://launch.test/v1/waitlist/confirm?token=abc.\nShare (https://launch.test/w/acme?ref=K7M2Q9XA), thanks!';
    expect(linksInMail(text, null)).toEqual([
      'https://launch.test/v1/waitlist/confirm?token=abc',
      'https://launch.test/w/acme?ref=K7M2Q9XA',
    ]);
  });

  it('adds the links only the HTML body has, decoded, and lists each link once', () => {
    const html =
      '<p><a href="https://launch.test/a?x=1&amp;y=2">A</a> <a href="https://launch.test/b">B</a> <a href="mailto:x@y.z">m</a></p>';
    expect(linksInMail('See https://launch.test/b', html)).toEqual(['https://launch.test/b', 'https://launch.test/a?x=1&y=2']);
  });

  it('reads the HTML body whenever it may hold a link the text body lacks', () => {
    const text = 'Confirm: https://launch.test/c and https://launch.test/u';
    const cases: [string, string[]][] = [
      // Every link already in the text: the same list, parsed or not.
      ['<a href="https://launch.test/c">C</a><a class="x" href="https://launch.test/u">U</a>', []],
      ['<a href="https://launch.test/c">C</a> <a href="https://launch.test/new">N</a>', ['https://launch.test/new']],
      ["<a href='https://launch.test/single'>S</a>", ['https://launch.test/single']],
      ['<A HREF="https://launch.test/upper">U</A>', ['https://launch.test/upper']],
      ['<a href = "https://launch.test/spaced">S</a>', ['https://launch.test/spaced']],
      ['<a href=https://launch.test/bare>B</a>', ['https://launch.test/bare']],
      ['<a href="https://launch.test/c?a=1&amp;b=2">E</a>', ['https://launch.test/c?a=1&b=2']],
      ['<!-- href="https://launch.test/c" --><a href="mailto:a@b.c">M</a>', []],
    ];
    for (const [html, extra] of cases) {
      expect(linksInMail(text, html)).toEqual(['https://launch.test/c', 'https://launch.test/u', ...extra]);
    }
  });

  it('finds nothing in a body without links', () => {
    expect(linksInMail('[removed after delivery]', null)).toEqual([]);
  });
});

describe('describeKeptMail', () => {
  const mail = {
    from: 'Launch <no-reply@localhost>',
    to: 'ada@example.com',
    subject: 'Confirm your spot',
    text: 'Confirm: https://launch.test/v1/waitlist/confirm?token=abc',
    html: null,
    headers: { 'X-Mail-Id': 'mail_1' },
  };

  it('shows recipient, subject and links in development, on one line', () => {
    const line = describeKeptMail(mail, { production: false, devMail: true, publicBaseUrl: 'https://launch.test' });
    expect(line).toBe(
      'Email to ada@example.com: "Confirm your spot"; links: https://launch.test/v1/waitlist/confirm?token=abc (not sent without SMTP_URL; all mail: https://launch.test/dev/mail)',
    );
  });

  it('points at GET /dev/mail only while it is on', () => {
    const line = describeKeptMail(mail, { production: false, devMail: false, publicBaseUrl: 'https://launch.test' });
    expect(line).toBe(
      'Email to ada@example.com: "Confirm your spot"; links: https://launch.test/v1/waitlist/confirm?token=abc (not sent without SMTP_URL)',
    );
  });

  it('shows neither recipient nor links in production', () => {
    const line = describeKeptMail(mail, { production: true, devMail: false, publicBaseUrl: 'https://launch.test' });
    expect(line).toBe('Email "Confirm your spot" (mail_1) kept in the mail outbox; set SMTP_URL to deliver it');
  });
});
