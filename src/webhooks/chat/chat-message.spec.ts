import type { WebhookEnvelope } from './chat-message';
import { chatMessage, eventLine } from './chat-message';
import { absoluteHttpsUrl } from './entry-message';

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
    expect(chatMessage('chat_a', envelope)).toEqual({ text: 'New waitlist signup: a@b.c (position 3)' });
    expect(chatMessage('chat_b', envelope)).toEqual({ content: 'New waitlist signup: a@b.c (position 3)' });
    expect(eventLine({ ...envelope, type: 'webhook.test', data: {} })).toMatch(/^Test event/);
  });

  it('chat_a: a Slack-style blocks message with the linked title, excerpt, image, details and buttons', () => {
    const message = chatMessage('chat_a', published());
    expect(message.text).toBe('Published: Dark mode <beta> & more');
    expect(message.blocks).toEqual([
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: '*<https://acme.launch.test/changelog/dark-mode|Dark mode &lt;beta&gt; &amp; more>*\nHello We shipped dark mode for everyone.',
        },
      },
      { type: 'image', image_url: 'https://cdn.acme.test/dark.png', alt_text: 'Dark mode <beta> & more' },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'new · v2.1.0 · ui, themes' }] },
      {
        type: 'actions',
        elements: [
          { type: 'button', text: { type: 'plain_text', text: 'Try it' }, url: 'https://app.acme.test/settings/theme', style: 'primary' },
          { type: 'button', text: { type: 'plain_text', text: 'Read the entry' }, url: 'https://acme.launch.test/changelog/dark-mode' },
        ],
      },
    ]);
  });

  it('chat_b: a Discord-style embed with the same parts', () => {
    const message = chatMessage('chat_b', published());
    expect(message.content).toBe('Published: Dark mode <beta> & more');
    expect(message.embeds).toEqual([
      {
        title: 'Dark mode <beta> & more',
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

  it('accepts only absolute https links', () => {
    expect(absoluteHttpsUrl('https://a.test/x?y=1')).toBe('https://a.test/x?y=1');
    for (const bad of ['http://a.test/', '/relative', 'javascript:alert(1)', '', null, 42, 'https//broken']) {
      expect(absoluteHttpsUrl(bad)).toBeNull();
    }
  });
});
