import type { WebhookEnvelope } from './chat-message';
import { EVENT_CATALOG, EVENT_TYPES } from '../../events/event-catalog';
import { chatMessage } from './chat-message';
import { absoluteHttpsUrl } from './chat-markup';

function published(data: Record<string, unknown> = {}): WebhookEnvelope {
  return {
    id: 'evt_1',
    type: 'changelog.entry.published',
    created_at: '2026-11-26T10:00:00.000Z',
    project_id: 'prj_1',
    data: {
      entry_id: 'ce_1',
      title: 'Dark mode <beta> & more',
      body_markdown: '## Hello\n\nWe shipped **dark mode** for everyone.',
      version: 'v2.1.0',
      category: 'new',
      published_at: '2026-11-26T10:00:00.000Z',
      public_url: 'https://acme.launch.test/changelog/dark-mode',
      audience: 'public',
      labels: ['ui', 'themes'],
      cover_image_url: 'https://cdn.acme.test/dark.png',
      cta_label: 'Try it',
      cta_url: 'https://app.acme.test/settings/theme',
      ...data,
    },
  };
}

describe('chat messages', () => {
  it("gives every other event one readable line in the format's field", () => {
    const envelope = {
      id: 'evt_2',
      type: 'waitlist.signup.created',
      created_at: '',
      project_id: 'prj_1',
      data: { email: 'a@b.c', position: 3 },
    };
    const line = 'New waitlist signup: a@b.c (position 3)';
    expect(chatMessage('chat_a', envelope)).toEqual({
      text: line,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: line, verbatim: true } }],
    });
    expect(chatMessage('chat_b', envelope)).toEqual({ content: line, allowed_mentions: { parse: [] } });
    expect(chatMessage('chat_b', { ...envelope, type: 'webhook.test', data: {} }).content).toMatch(/^Test event/);
  });

  it('names an erased person as such, not as "null" (their email is null in the stored event)', () => {
    const signup = {
      id: 'evt_3',
      type: 'waitlist.signup.created',
      created_at: '',
      project_id: 'prj_1',
      data: { email: null, position: 4 },
    };
    expect(chatMessage('chat_b', signup).content).toBe('New waitlist signup: someone (erased) (position 4)');
    const subscriber = { ...signup, type: 'changelog.subscriber.created', data: { email: null } };
    expect(chatMessage('chat_b', subscriber).content).toBe('New changelog subscriber: someone (erased)');
  });

  it('chat_a: a Slack-style blocks message with the linked title, excerpt, image, details and buttons', () => {
    const message = chatMessage('chat_a', published());
    expect(message.text).toBe('Published: Dark mode &lt;beta&gt; &amp; more');
    expect(message.blocks).toEqual([
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: '*<https://acme.launch.test/changelog/dark-mode|Dark mode &lt;beta&gt; &amp; more>*\nHello We shipped dark mode for everyone.',
          verbatim: true,
        },
      },
      { type: 'image', image_url: 'https://cdn.acme.test/dark.png', alt_text: 'Dark mode <beta> & more' },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'new · v2.1.0 · ui, themes', verbatim: true }] },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Try it', emoji: false },
            url: 'https://app.acme.test/settings/theme',
            style: 'primary',
          },
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Read the entry', emoji: false },
            url: 'https://acme.launch.test/changelog/dark-mode',
          },
        ],
      },
    ]);
  });

  it('chat_b: a Discord-style embed with the same parts', () => {
    const message = chatMessage('chat_b', published());
    expect(message.content).toBe('Published: Dark mode \\<beta\\> & more');
    expect(message.allowed_mentions).toEqual({ parse: [] });
    expect(message.embeds).toEqual([
      {
        title: 'Dark mode \\<beta\\> & more',
        url: 'https://acme.launch.test/changelog/dark-mode',
        description: 'Hello We shipped dark mode for everyone.\n\n[Read the entry](https://acme.launch.test/changelog/dark-mode)',
        image: { url: 'https://cdn.acme.test/dark.png' },
        fields: [
          { name: 'Category', value: 'new', inline: true },
          { name: 'Version', value: 'v2.1.0', inline: true },
          { name: 'Labels', value: 'ui, themes', inline: true },
          { name: 'Try it', value: '[Try it](https://app.acme.test/settings/theme)', inline: false },
        ],
      },
    ]);
  });

  it.each(['signed_in', 'segment'])('gives a %s entry no link to the entry, in either format', (audience) => {
    const slack = JSON.stringify(chatMessage('chat_a', published({ audience })));
    const discord = chatMessage('chat_b', published({ audience }));
    expect(slack).not.toContain('acme.launch.test/changelog');
    expect(slack).toContain('*Dark mode &lt;beta&gt; &amp; more*');
    expect(JSON.stringify(discord)).not.toContain('acme.launch.test/changelog');
    expect((discord.embeds as Record<string, unknown>[])[0].url).toBeUndefined();
  });

  it('leaves out a cover image and a button that are not absolute https links, and missing details', () => {
    const envelope = published({
      cover_image_url: '/img/dark.png',
      cta_url: 'javascript:alert(1)',
      version: null,
      labels: [],
      category: null,
    });
    const slack = chatMessage('chat_a', envelope).blocks as { type: string; elements?: unknown[] }[];
    expect(slack.map((block) => block.type)).toEqual(['section', 'actions']);
    expect(slack[1].elements).toHaveLength(1);
    const embed = (chatMessage('chat_b', envelope).embeds as Record<string, unknown>[])[0];
    expect(embed.image).toBeUndefined();
    expect(embed.fields).toBeUndefined();
  });

  it("keeps every text within the receivers' limits, however much escaping lengthens it", () => {
    const envelope = published({ title: '*'.repeat(200), cta_label: 'x'.repeat(80), labels: Array(100).fill('<'.repeat(40)) });
    const [embed] = chatMessage('chat_b', envelope).embeds as { title: string; fields: { name: string; value: string }[] }[];
    expect(embed.title.length).toBeLessThanOrEqual(256);
    expect(embed.title.endsWith('\\*…')).toBe(true);
    expect(embed.fields.map((field) => [field.name.length <= 256, field.value.length <= 1024])).toEqual(
      embed.fields.map(() => [true, true]),
    );
    type Block = { type: string; elements: { text: string | { text: string } }[] };
    const blocks = chatMessage('chat_a', envelope).blocks as Block[];
    const [context] = blocks.find((block) => block.type === 'context')!.elements as { text: string }[];
    expect(context.text.length).toBeLessThanOrEqual(3000);
    expect(context.text.endsWith('&lt;…')).toBe(true);
    const [button] = blocks.find((block) => block.type === 'actions')!.elements as { text: { text: string } }[];
    expect(button.text.text).toBe(`${'x'.repeat(74)}…`);
  });

  it('accepts only absolute https links', () => {
    expect(absoluteHttpsUrl('https://a.test/x?y=1')).toBe('https://a.test/x?y=1');
    for (const bad of ['http://a.test/', '/relative', 'javascript:alert(1)', '', null, 42, 'https//broken']) {
      expect(absoluteHttpsUrl(bad)).toBeNull();
    }
  });
});

/** Every trick a visitor (or a careless owner) could try in a chat channel. */
const HOSTILE =
  'Hi <!channel> <!here> <!everyone> <@U024BE7LH> <#C024BE7LR> <!subteam^S1> <https://evil.test/a|refund> ' +
  '[refund](https://evil.test/b) @everyone @here <@123> <@!123> <@&456> <#789> https://evil.test/c ' +
  '*bold* `code` ||spoiler|| > quote & done';
// The entry's page and the owner's button: the only links a chat message may hold.
const OWN_ORIGINS = ['https://acme.launch.test', 'https://app.acme.test'];
const isOwnLink = (url: string) => URL.canParse(url) && OWN_ORIGINS.includes(new URL(url).origin);

/** Every event type (and ones not written yet) with every data field set to hostile text. */
function hostileEnvelopes(): WebhookEnvelope[] {
  const types = [...EVENT_TYPES, 'webhook.test', 'future.event.type'];
  return types.map((type) => {
    const fields: readonly string[] = (EVENT_CATALOG as Record<string, { fields: readonly string[] }>)[type]?.fields ?? ['anything'];
    const data: Record<string, unknown> = Object.fromEntries(fields.map((field) => [field, HOSTILE]));
    if (type === 'changelog.entry.published') {
      Object.assign(data, {
        audience: 'public',
        labels: [HOSTILE, HOSTILE],
        public_url: 'https://acme.launch.test/changelog/entry',
        cover_image_url: 'https://cdn.acme.test/cover.png',
        // An owner's button link may carry characters that end a markdown link early.
        cta_url: 'https://app.acme.test/go)[x](https://evil.test/d)|<https://evil.test/e>',
      });
    }
    if (type === 'waitlist.signups.invited') data.invited = [{ signup_id: 'ws_1', email: HOSTILE }];
    return { id: 'evt_1', type, created_at: '2026-11-26T10:00:00.000Z', project_id: 'prj_1', data };
  });
}

/** The strings of a Slack-style body that Slack reads as mrkdwn, each with its text object. */
function slackMrkdwn(body: Record<string, unknown>): { text: string; object: Record<string, unknown> | null }[] {
  const found: { text: string; object: Record<string, unknown> | null }[] = [{ text: body.text as string, object: null }];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const object = node as Record<string, unknown>;
      if (object.type === 'mrkdwn') found.push({ text: object.text as string, object });
      Object.values(object).forEach(walk);
    }
  };
  walk(body.blocks);
  return found;
}

/** The strings of a Discord-style body that Discord reads as markdown. */
function discordMarkdown(body: Record<string, unknown>): string[] {
  const texts = [body.content as string];
  for (const embed of (body.embeds ?? []) as Record<string, unknown>[]) {
    texts.push(embed.title as string, embed.description as string);
    for (const field of (embed.fields ?? []) as { name: string; value: string }[]) texts.push(field.name, field.value);
  }
  return texts.filter((text) => typeof text === 'string');
}

describe('chat messages carry visitor values as text', () => {
  it.each(hostileEnvelopes().map((envelope) => [envelope.type, envelope] as const))(
    'chat_a: %s has no mention or link but our own, and Slack does not parse its text',
    (_type, envelope) => {
      const body = chatMessage('chat_a', envelope);
      const texts = slackMrkdwn(body);
      // In mrkdwn, < … > is the only way to a mention, a channel ping or a link.
      const controls = texts.flatMap(({ text }) => [...text.matchAll(/<([^>]*)>/g)].map((match) => match[1]));
      expect(controls.filter((inside) => !isOwnLink(inside.split('|')[0]))).toEqual([]);
      // Without verbatim, Slack itself links bare URLs and parses @channel in a text object.
      expect(texts.filter(({ object }) => object && object.verbatim !== true).map(({ text }) => text)).toEqual([]);
    },
  );

  it.each(hostileEnvelopes().map((envelope) => [envelope.type, envelope] as const))(
    'chat_b: %s pings nobody and has no mention or link but our own',
    (_type, envelope) => {
      const body = chatMessage('chat_b', envelope);
      expect(body.allowed_mentions).toEqual({ parse: [] });
      // What Discord reads: a backslash makes the next punctuation character plain text.
      const texts = discordMarkdown(body).map((text) => text.replace(/\\[^0-9A-Za-z\s]/g, '·'));
      const maskedLink = /\[[^\]]*\]\(([^)\s]*)\)/g;
      const links = texts.flatMap((text) => [...text.matchAll(maskedLink)].map((match) => match[1]));
      expect(links.filter((url) => !isOwnLink(url))).toEqual([]);
      // Mentions, channel links, <url> and [text](url) start with < or [; bare URLs with a scheme.
      const rest = texts.map((text) => text.replace(maskedLink, ''));
      expect(rest.flatMap((text) => text.match(/<[^\s]*|\[[^\s]*|@everyone|@here|\S*:\/\/\S*/g) ?? [])).toEqual([]);
    },
  );
});
