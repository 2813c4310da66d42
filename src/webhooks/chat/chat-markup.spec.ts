import { DISCORD_MARKUP, SLACK_MARKUP, cutPlainText, linkTarget, writeChatText } from './chat-markup';
import { chatLink, chatText, chatValue, joinChatText } from './chat-text';

const slack = (value: unknown) => writeChatText(SLACK_MARKUP, chatValue(value));
const discord = (value: unknown) => writeChatText(DISCORD_MARKUP, chatValue(value));

describe('chat markup', () => {
  describe('Slack-style mrkdwn (chat_a)', () => {
    it('escapes &, < and > so mentions and links stay text', () => {
      expect(slack('<!channel> <!here> <@U024BE7LH> <#C1> <!subteam^S1>')).toBe(
        '&lt;!channel&gt; &lt;!here&gt; &lt;@U024BE7LH&gt; &lt;#C1&gt; &lt;!subteam^S1&gt;',
      );
      expect(slack('<https://evil.test|refund> & more')).toBe('&lt;https://evil.test|refund&gt; &amp; more');
      // An entity a visitor types is shown as typed, not decoded into a control character.
      expect(slack('&lt;!channel&gt;')).toBe('&amp;lt;!channel&amp;gt;');
    });

    it('writes our links with the label as text and a target that cannot end the link early', () => {
      const link = chatLink('https://app.acme.test/a?b=1&c=2|x>y', 'Read <this> & that');
      expect(writeChatText(SLACK_MARKUP, link)).toBe('<https://app.acme.test/a?b=1&amp;c=2%7Cx%3Ey|Read &lt;this&gt; &amp; that>');
      expect(writeChatText(SLACK_MARKUP, chatLink('javascript:alert(1)', 'Click'))).toBe('Click');
    });
  });

  describe('Discord-style markdown (chat_b)', () => {
    it.each([
      ['[refund](https://evil.test/r)', '\\[refund\\](https\\://evil.test/r)'],
      ['see https://evil.test now', 'see https\\://evil.test now'],
      ['<https://evil.test>', '\\<https\\://evil.test\\>'],
      ['<@123> <@!123> <@&456> <#789> </cmd:1>', '\\<@123\\> \\<@!123\\> \\<@&456\\> \\<\\#789\\> \\</cmd:1\\>'],
      ['@everyone and @Here', '\\@everyone and \\@Here'],
      ['**bold** _it_ ~~s~~ `code` ||spoiler||', '\\*\\*bold\\*\\* \\_it\\_ \\~\\~s\\~\\~ \\`code\\` \\|\\|spoiler\\|\\|'],
      ['# Heading', '\\# Heading'],
      ['> quote', '\\> quote'],
      ['- item', '\\- item'],
      [' -# small', ' \\-\\# small'],
      ['back\\slash', 'back\\\\slash'],
    ])('writes %j as text', (value, written) => {
      expect(discord(value)).toBe(written);
    });

    it('leaves ordinary text alone', () => {
      expect(discord('ada@example.com, v2.1-beta at 10:30 (really!)')).toBe('ada@example.com, v2.1-beta at 10:30 (really!)');
    });

    it('writes our links with the label as text and a target that cannot end the link early', () => {
      const link = chatLink('https://app.acme.test/go)[x](https://evil.test/)', 'Try [it]');
      expect(writeChatText(DISCORD_MARKUP, link)).toBe('[Try \\[it\\]](https://app.acme.test/go%29%5Bx%5D%28https://evil.test/%29)');
      expect(writeChatText(DISCORD_MARKUP, chatLink('/relative', 'Try'))).toBe('Try');
    });
  });

  it.each([
    ['chat_a', SLACK_MARKUP],
    ['chat_b', DISCORD_MARKUP],
  ] as const)('%s: keeps a value on one line and drops bidi controls', (_format, markup) => {
    expect(writeChatText(markup, chatValue('one\ntwo\r\n\tthree\u2028four'))).toBe('one two three four');
    expect(writeChatText(markup, chatValue('abc\u202edcba'))).toBe('abcdcba');
  });

  it("writes the service's own words as they are and every value as text", () => {
    const title = 'A *big* <day>';
    const line = chatText`*Published:* ${title} ${42} ${null}`;
    expect(writeChatText(SLACK_MARKUP, line)).toBe('*Published:* A *big* &lt;day&gt; 42 null');
    expect(writeChatText(DISCORD_MARKUP, line)).toBe('*Published:* A \\*big\\* \\<day\\> 42 null');
    const nested = joinChatText([chatText`${'a<'}`, chatText`b ${line}`], ' · ');
    expect(writeChatText(SLACK_MARKUP, nested)).toBe('a&lt; · b *Published:* A *big* &lt;day&gt; 42 null');
  });

  it('cuts to a length limit with an ellipsis, never inside an escape or a link', () => {
    expect(writeChatText(SLACK_MARKUP, chatValue('<<<<'), 8)).toBe('&lt;…');
    expect(writeChatText(DISCORD_MARKUP, chatValue('****'), 6)).toBe('\\*\\*…');
    const withLink = chatText`Hello ${chatLink('https://acme.test/entry', 'Read')}`;
    expect(writeChatText(DISCORD_MARKUP, withLink, 20)).toBe('Hello …');
    expect(writeChatText(DISCORD_MARKUP, withLink)).toBe('Hello [Read](https://acme.test/entry)');
  });

  it('cuts plain text without splitting a character', () => {
    expect(cutPlainText('ab😀cd', 4)).toBe('ab…');
    expect(cutPlainText('short', 75)).toBe('short');
  });

  it('takes only absolute https link targets, percent-encoding what would end a link', () => {
    expect(linkTarget('https://a.test/x?y=1')).toBe('https://a.test/x?y=1');
    expect(linkTarget('https://a.test/(x)|[y] z')).toBe('https://a.test/%28x%29%7C%5By%5D%20z');
    for (const bad of ['http://a.test/', '/relative', 'javascript:alert(1)', '']) expect(linkTarget(bad)).toBeNull();
  });
});
