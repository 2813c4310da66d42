import { SafeHtml } from '../common/markdown/safe-html';
import { EMAIL_TEMPLATES, EMAIL_TEMPLATE_NAMES } from './email-template-catalog';
import { renderEmailTemplate, templateProblem } from './email-template-engine';

const CONFIRM = EMAIL_TEMPLATES.waitlist_confirmation;
const ENTRY = EMAIL_TEMPLATES.changelog_entry;

describe('renderEmailTemplate', () => {
  it('renders text as is, HTML escaped with linked addresses and paragraphs, and a one-line subject', () => {
    const email = renderEmailTemplate(
      {
        subject: 'Hi from {{project_name}}\t!',
        body: 'Welcome to <{{project_name}}>.\n\nConfirm: {{confirm_url}}\nDocs: https://docs.test/a?b=1&c=2',
      },
      { project_name: 'A & <B>', confirm_url: 'https://launch.test/c?token=1&x=2' },
    );
    expect(email.subject).toBe('Hi from A & <B> !');
    expect(email.text).toBe('Welcome to <A & <B>>.\n\nConfirm: https://launch.test/c?token=1&x=2\nDocs: https://docs.test/a?b=1&c=2');
    expect(email.html).toContain('<p>Welcome to &lt;A &amp; &lt;B&gt;&gt;.</p>\n<p>Confirm: ');
    expect(email.html).toContain('<a href="https://launch.test/c?token=1&amp;x=2">https://launch.test/c?token=1&amp;x=2</a><br>');
    expect(email.html).toContain('<a href="https://docs.test/a?b=1&amp;c=2">');
    expect(email.html).toContain('<title>Hi from A &amp; &lt;B&gt; !</title>');
  });

  it('links only whole addresses: a value with an address inside stays escaped text', () => {
    const email = renderEmailTemplate({ subject: 's', body: '{{title}}' }, { title: 'see https://x.test" onclick="alert(1)' });
    expect(email.html).not.toContain('onclick="');
    expect(email.html).not.toContain('<a ');
  });

  it('writes the entry body as sanitized HTML in the HTML part and as text in the text part', () => {
    const body = { text: 'Now with dark mode.', html: SafeHtml.fromSanitized('<p>Now with <strong>dark mode</strong>.</p>') };
    const email = renderEmailTemplate(ENTRY.defaults, {
      project_name: 'Acme',
      title: 'Dark',
      version: '',
      entry_body: body,
      public_url: 'https://launch.test/e',
      preferences_url: 'https://launch.test/p',
      unsubscribe_url: 'https://launch.test/u',
    });
    expect(email.subject).toBe('Dark');
    expect(email.text).toContain('Now with dark mode.');
    expect(email.html).toContain('<strong>dark mode</strong>');
    expect(email.html).not.toContain(' · ');
  });
});

describe('templateProblem', () => {
  it('accepts every default template', () => {
    for (const name of EMAIL_TEMPLATE_NAMES) expect(templateProblem(EMAIL_TEMPLATES[name], EMAIL_TEMPLATES[name].defaults)).toBeNull();
  });

  it.each([
    [{ subject: '  ', body: CONFIRM.defaults.body }, 'subject', /empty/],
    [{ subject: 'x'.repeat(201), body: CONFIRM.defaults.body }, 'subject', /at most 200/],
    [{ subject: 'a\nBcc: x', body: CONFIRM.defaults.body }, 'subject', /one line/],
    [{ subject: 'Hi {{name}}', body: CONFIRM.defaults.body }, 'subject', /unknown placeholder \{\{name\}\}/],
    [{ subject: 'Hi', body: '' }, 'body', /empty/],
    [{ subject: 'Hi', body: `{{confirm_url}} {{unsubscribe_url}} ${'x'.repeat(20_000)}` }, 'body', /at most 20000/],
    [{ subject: 'Hi', body: '{{confirm_url}} {{unsubscribe_url}} {{first_name}}' }, 'body', /unknown placeholder \{\{first_name\}\}/],
    [{ subject: 'Hi', body: 'Unsubscribe: {{unsubscribe_url}}' }, 'body', /must contain \{\{confirm_url\}\}/],
    [{ subject: 'Hi', body: '{{#position}}{{confirm_url}}{{/position}} {{unsubscribe_url}}' }, 'body', /confirm_url.*outside any section/],
    [{ subject: 'Hi', body: '{{{confirm_url}}} {{unsubscribe_url}}' }, 'body', /not allowed/],
    [{ subject: 'Hi', body: '{{&confirm_url}} {{unsubscribe_url}}' }, 'body', /not allowed/],
    [{ subject: 'Hi', body: '{{> footer}} {{confirm_url}} {{unsubscribe_url}}' }, 'body', /partials/],
    [{ subject: 'Hi', body: '{{=<% %>=}} <% confirm_url %> {{unsubscribe_url}}' }, 'body', /delimiters/],
    [{ subject: 'Hi', body: '{{#position}} {{confirm_url}} {{unsubscribe_url}}' }, 'body', /not a valid template/],
  ])('refuses %j on %s', (template, param, message) => {
    expect(templateProblem(CONFIRM, template)).toEqual({ param, message: expect.stringMatching(message) });
  });

  it('keeps the formatted entry body out of the subject', () => {
    expect(templateProblem(ENTRY, { subject: '{{entry_body}}', body: ENTRY.defaults.body })).toMatchObject({ param: 'subject' });
  });
});
