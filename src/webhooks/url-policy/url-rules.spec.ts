import { checkWebhookUrl, chatFormatOf, maskWebhookUrl, UrlRuleViolation } from './url-rules';

const strict = { allowInsecureUrls: false };
const loose = { allowInsecureUrls: true };
const SLACK = 'https://hooks.slack.com/services/T0001ABC/B0002DEF/abcdEFGH1234ijkl';
const DISCORD = 'https://discord.com/api/webhooks/123456789012345678/AbC-dEf_GhI';

function violation(raw: string, format: 'json' | 'chat_a' | 'chat_b' = 'json', options = strict): string {
  try {
    checkWebhookUrl(raw, format, options);
  } catch (error) {
    if (error instanceof UrlRuleViolation) return error.message;
    throw error;
  }
  throw new Error(`${raw} passed`);
}

describe('checkWebhookUrl', () => {
  it('accepts a public https URL on the default port', () => {
    expect(checkWebhookUrl('https://hooks.example.com/launch?x=1', 'json', strict).hostname).toBe('hooks.example.com');
    expect(checkWebhookUrl('https://hooks.example.com:443/launch', 'json', strict).port).toBe('');
  });

  it.each([
    ['not a url', /absolute URL/],
    ['http://hooks.example.com/x', /must use https:\/\/ \(got http:\/\/\)/],
    ['ftp://hooks.example.com/x', /must use https:\/\//],
    ['https://user:pw@hooks.example.com/x', /username or password/],
    ['https://user@hooks.example.com/x', /username or password/],
    ['https://hooks.example.com:8443/x', /default https port 443, not :8443/],
    ['https://10.0.0.1/x', /not an IP address \(10\.0\.0\.1\)/],
    ['https://[::1]/x', /not an IP address \(::1\)/],
    ['https://[::ffff:127.0.0.1]/x', /not an IP address/],
    ['https://2130706433/x', /not an IP address \(127\.0\.0\.1\)/],
    ['https://0x7f.0.0.1/x', /not an IP address \(127\.0\.0\.1\)/],
    ['https://0177.0.0.1/x', /not an IP address \(127\.0\.0\.1\)/],
    ['https://127.1/x', /not an IP address \(127\.0\.0\.1\)/],
    ['https://localhost/x', /single-label/],
    ['https://intranet/x', /single-label/],
    ['https://api.localhost/x', /\.localhost names are internal/],
    ['https://localhost./x', /single-label/],
    ['https://printer.local/x', /\.local names are internal/],
    ['https://db.internal/x', /\.internal names are internal/],
    ['https://nas.lan/x', /\.lan names are internal/],
    ['https://box.home/x', /\.home names are internal/],
    ['https://git.corp/x', /\.corp names are internal/],
    ['https://api.test/x', /\.test names are internal/],
    ['https://1.0.0.127.in-addr.arpa/x', /\.arpa names are internal/],
  ])('refuses %s', (raw, message) => {
    expect(violation(raw)).toMatch(message);
  });

  it('relaxes scheme, port, IP and internal names when insecure URLs are allowed', () => {
    expect(checkWebhookUrl('http://127.0.0.1:4000/hook', 'json', loose).port).toBe('4000');
    expect(checkWebhookUrl('http://localhost:80/hook', 'json', loose).hostname).toBe('localhost');
    expect(violation('http://u:p@127.0.0.1:4000/hook', 'json', loose)).toMatch(/username or password/);
  });

  it('checks the chat services URL shapes', () => {
    expect(checkWebhookUrl(SLACK, 'chat_a', strict).hostname).toBe('hooks.slack.com');
    expect(checkWebhookUrl(SLACK.replace('slack.com', 'slack-gov.com'), 'chat_a', strict).hostname).toBe('hooks.slack-gov.com');
    for (const host of ['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com']) {
      expect(checkWebhookUrl(DISCORD.replace('discord.com', host), 'chat_b', strict).hostname).toBe(host);
    }
    expect(violation(DISCORD, 'chat_a')).toMatch(/chat_a endpoint needs a Slack-style/);
    expect(violation('https://hooks.example.com/services/T1/B1/x', 'chat_a')).toMatch(/Slack-style/);
    expect(violation(SLACK, 'chat_b')).toMatch(/chat_b endpoint needs a Discord-style/);
    expect(violation('https://discord.com/api/webhooks/abc/def', 'chat_b')).toMatch(/Discord-style/);
    // A chat URL sent as json is a json endpoint.
    expect(checkWebhookUrl(SLACK, 'json', strict).hostname).toBe('hooks.slack.com');
    // Local receivers in tests: any host, the service's path.
    expect(checkWebhookUrl('http://127.0.0.1:4000/services/T1/B2/abc', 'chat_a', loose).port).toBe('4000');
    expect(violation('http://127.0.0.1:4000/hook', 'chat_b', loose)).toMatch(/Discord-style/);
  });
});

describe('chatFormatOf', () => {
  it('recognises the two services', () => {
    expect(chatFormatOf(new URL(SLACK))).toBe('chat_a');
    expect(chatFormatOf(new URL(DISCORD))).toBe('chat_b');
    expect(chatFormatOf(new URL('https://hooks.example.com/x'))).toBeNull();
  });
});

describe('maskWebhookUrl', () => {
  it('keeps scheme, host and the last 4 characters', () => {
    expect(maskWebhookUrl(new URL(SLACK))).toBe('https://hooks.slack.com/…/ijkl');
    expect(maskWebhookUrl(new URL(DISCORD))).toBe('https://discord.com/…/_GhI');
    expect(maskWebhookUrl(new URL('https://hooks.example.com/receive?token=s3cr3tvalue'))).toBe('https://hooks.example.com/…/alue');
  });

  it('hides a short rest entirely, and shows the port when there is one', () => {
    expect(maskWebhookUrl(new URL('https://hooks.example.com/'))).toBe('https://hooks.example.com/');
    expect(maskWebhookUrl(new URL('https://hooks.example.com/hook'))).toBe('https://hooks.example.com/…');
    expect(maskWebhookUrl(new URL('http://127.0.0.1:4000/receive/events'))).toBe('http://127.0.0.1:4000/…/ents');
  });
});
