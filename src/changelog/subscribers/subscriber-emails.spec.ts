import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EntryEmailInput, confirmationEmail, emailBody, entryEmail, entryEmailSubject } from './subscriber-emails';

const LINKS = {
  unsubscribeUrl: 'https://launch.test/v1/changelog/subscribers/unsubscribe?token=u1',
  preferencesUrl: 'https://launch.test/v1/changelog/subscribers/preferences?token=l1',
};

describe('entryEmail', () => {
  const input: EntryEmailInput = {
    ...LINKS,
    projectName: 'Acme <Beta>',
    title: 'Dark mode & more',
    version: 'v2.1',
    body: emailBody('Now with **dark mode**. [Docs](https://acme.test/docs)'),
    publicUrl: 'https://launch.test/changelog/acme/ce_1',
  };

  it('has the title with its version as subject, the text body and every link', () => {
    const email = entryEmail(input);
    expect(email.subject).toBe('Dark mode & more (v2.1)');
    expect(email.text).toContain('Now with dark mode. Docs');
    expect(email.text).toContain(`Read it online: ${input.publicUrl}`);
    expect(email.text).toContain(`Unsubscribe: ${LINKS.unsubscribeUrl}`);
    expect(email.text).toContain(`Choose your topics: ${LINKS.preferencesUrl}`);
    expect(email.html).toContain('<strong>dark mode</strong>');
    expect(email.html).toContain('href="https://acme.test/docs"');
    expect(email.html).toContain(`href="${LINKS.unsubscribeUrl}"`);
    expect(email.html).toContain('Dark mode &amp; more');
    expect(email.html).toContain('Acme &lt;Beta&gt; changelog');
  });

  it('keeps scripts and javascript:/data: links out of the HTML and the text', () => {
    const email = entryEmail({
      ...input,
      body: emailBody('<script>alert(1)</script> [x](javascript:alert(2)) ![i](data:image/png;base64,AAAA) <img src=x onerror=alert(3)>'),
    });
    expect(email.html).not.toMatch(/<script|javascript:|data:image|<img/i);
    expect(email.text).not.toMatch(/<script|javascript:|data:image|<img|alert\(1\)/i);
    expect(email.text).toContain('x');
  });

  it('catches schemes hidden behind entities in the text, and leaves ordinary words alone', () => {
    const email = entryEmail({ ...input, body: emailBody('[a](&#106;avascript:alert(1)) Export data: faster. Config file: smaller.') });
    expect(email.text).not.toMatch(/javascript:/i);
    expect(email.html).not.toMatch(/javascript:/i);
    expect(email.text).toContain('Export data: faster. Config file: smaller.');
  });

  it('leaves the version out of the subject when there is none', () => {
    expect(entryEmailSubject('Faster search', null)).toBe('Faster search');
  });
});

describe('confirmationEmail', () => {
  it('carries the confirm link and escapes the project name', () => {
    const email = confirmationEmail({ ...LINKS, projectName: 'A & B', confirmUrl: 'https://launch.test/c?token=c1' });
    expect(email.subject).toBe('Confirm your subscription to the A & B changelog');
    expect(email.text).toContain('Confirm your subscription: https://launch.test/c?token=c1');
    expect(email.html).toContain('href="https://launch.test/c?token=c1"');
    expect(email.html).toContain('the A &amp; B changelog');
  });
});

describe('templates', () => {
  it('never use the unescaped Mustache forms', () => {
    expect(readFileSync(join(__dirname, 'subscriber-emails.ts'), 'utf8')).not.toMatch(/\{\{\{|\{\{&/);
  });
});
