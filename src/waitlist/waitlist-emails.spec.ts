import { confirmationEmail, escapeHtml, inviteEmail } from './waitlist-emails';

describe('escapeHtml', () => {
  it('escapes the five HTML special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});

describe('waitlist emails', () => {
  const links = {
    confirmUrl: 'https://launch.test/v1/waitlist/confirm?token=c1',
    unsubscribeUrl: 'https://launch.test/v1/waitlist/unsubscribe?token=u1',
    referralLink: 'https://launch.test/w/acme?ref=K7M2Q9XA',
  };

  it('the confirmation email names the project and carries the confirm, referral and unsubscribe links', () => {
    const email = confirmationEmail({ projectName: 'Acme <Beta>', position: 3, ...links });
    expect(email.subject).toBe('Confirm your spot on the Acme <Beta> waitlist');
    for (const url of Object.values(links)) expect(email.text).toContain(url);
    expect(email.text).toContain('position 3');
    expect(email.html).toContain('Acme &lt;Beta&gt;');
    expect(email.html).not.toContain('<Beta>');
    expect(email.html).toContain('href="https://launch.test/v1/waitlist/unsubscribe?token=u1"');
  });

  it('the invite email carries the unsubscribe link', () => {
    const email = inviteEmail({ projectName: 'Acme', unsubscribeUrl: links.unsubscribeUrl });
    expect(email.subject).toBe("You're invited to Acme");
    expect(email.text).toContain(links.unsubscribeUrl);
    expect(email.html).toContain(`href="${links.unsubscribeUrl}"`);
  });
});
