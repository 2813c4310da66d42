import { TestApp } from '../support/test-app';
import { Receiver, deliveriesOf, eventually, insertEndpoint } from './delivery-support';

const ENTRY = {
  title: 'Export to PDF',
  body_markdown: 'You can now **export** reports.',
  category: 'feature',
  version: '1.4.0',
  cover_image_url: 'https://cdn.example.com/pdf.png',
  cta_label: 'Try it',
  cta_url: 'https://app.example.com/export',
};

describe('chat endpoints', () => {
  let t: TestApp;
  let slack: Receiver;
  let discord: Receiver;
  let json: Receiver;

  beforeAll(async () => {
    t = await TestApp.start({ env: { WEBHOOK_ALLOW_INSECURE_URLS: 'true' } });
    [slack, discord, json] = await Promise.all([Receiver.start(), Receiver.start(), Receiver.start()]);
  });
  beforeEach(() => [slack, discord, json].forEach((receiver) => receiver.reset()));
  afterAll(async () => {
    await Promise.all([slack, discord, json].map((receiver) => receiver.close()));
    await t.close();
  });

  async function setup() {
    const seeded = await t.seedProject({ plan: 'builder' });
    const a = await insertEndpoint(t, seeded.project.id, { url: slack.url, format: 'chat_a', events: ['changelog.entry.published'] });
    const b = await insertEndpoint(t, seeded.project.id, { url: discord.url, format: 'chat_b', events: ['*'] });
    const j = await insertEndpoint(t, seeded.project.id, { url: json.url, events: ['changelog.entry.published'] });
    return { ...seeded, chatA: a.endpoint, chatB: b.endpoint, json: j.endpoint };
  }

  it('posts a published public entry as a rich block message and embed, and the envelope to JSON endpoints', async () => {
    const { secretKey } = await setup();
    const res = await t.api.as(secretKey).post('/v1/changelog/entries').send(ENTRY).expect(201);
    await Promise.all([slack.waitFor(1), discord.waitFor(1), json.waitFor(1)]);
    const publicUrl = res.body.data.public_url as string;

    const blocks = slack.requests[0].json.blocks as { type: string; text?: { text: string }; elements?: { url?: string }[] }[];
    expect(slack.requests[0].json.text).toBe('Published: Export to PDF');
    expect(blocks.map((block) => block.type)).toEqual(['section', 'image', 'context', 'actions']);
    expect(blocks[0].text!.text).toBe(`*<${publicUrl}|Export to PDF>*\nYou can now export reports.`);
    expect(blocks[2]).toEqual({ type: 'context', elements: [{ type: 'mrkdwn', text: 'feature · 1.4.0', verbatim: true }] });
    expect(blocks[3].elements!.map((button) => button.url)).toEqual(['https://app.example.com/export', publicUrl]);

    const [embed] = discord.requests[0].json.embeds as Record<string, unknown>[];
    expect(embed).toMatchObject({ title: 'Export to PDF', url: publicUrl, image: { url: 'https://cdn.example.com/pdf.png' } });
    expect(json.requests[0].json).toMatchObject({
      type: 'changelog.entry.published',
      data: { title: 'Export to PDF', audience: 'public' },
    });
    expect(slack.requests[0].headers['service-signature']).toMatch(/^t=\d+,v1=/);
    expect(discord.requests[0].json.allowed_mentions).toEqual({ parse: [] });
  });

  it('gives a visitor no mention and no link: feedback reaches chat as text, and the Discord body allows no mention', async () => {
    const { project, publishableKey } = await t.seedProject({ plan: 'builder' });
    await insertEndpoint(t, project.id, { url: slack.url, format: 'chat_a', events: ['feedback.created'] });
    await insertEndpoint(t, project.id, { url: discord.url, format: 'chat_b', events: ['feedback.created'] });
    const text = 'Refund now <!channel> <@U024BE7LH> at <https://evil.test/r|billing> or [billing](https://evil.test/r) @everyone';
    const res = await t.api.as(publishableKey).post('/v1/feedback').send({ feedback_text: text }).expect(201);
    const classification = res.body.data.classification as string;
    await Promise.all([slack.waitFor(1), discord.waitFor(1)]);

    const slackLine =
      `New ${classification} feedback: Refund now &lt;!channel&gt; &lt;@U024BE7LH&gt; at ` +
      '&lt;https://evil.test/r|billing&gt; or [billing](https://evil.test/r) @everyone';
    expect(slack.requests[0].json).toEqual({
      text: slackLine,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: slackLine, verbatim: true } }],
    });
    expect(discord.requests[0].json).toEqual({
      content:
        `New ${classification.replace(/_/g, '\\_')} feedback: Refund now \\<!channel\\> \\<@U024BE7LH\\> at ` +
        '\\<https\\://evil.test/r\\|billing\\> or \\[billing\\](https\\://evil.test/r) \\@everyone',
      allowed_mentions: { parse: [] },
    });
  });

  it('skips chat endpoints for an entry with notify_chat false; JSON endpoints still get it', async () => {
    const { secretKey, chatA, chatB, json: jsonEndpoint } = await setup();
    await t.api
      .as(secretKey)
      .post('/v1/changelog/entries')
      .send({ ...ENTRY, notify_chat: false })
      .expect(201);
    await json.waitFor(1);
    await t.drainJobs();
    expect(slack.requests).toHaveLength(0);
    expect(discord.requests).toHaveLength(0);
    expect(await deliveriesOf(t, chatA.id)).toHaveLength(0);
    expect(await deliveriesOf(t, chatB.id)).toHaveLength(0);
    await eventually(async () => expect((await deliveriesOf(t, jsonEndpoint.id))[0].status).toBe('delivered'));
  });

  it('a signed-in entry reaches chat without any link to the entry', async () => {
    const { secretKey } = await setup();
    await t.api
      .as(secretKey)
      .post('/v1/changelog/entries')
      .send({ ...ENTRY, audience: 'signed_in' })
      .expect(201);
    await Promise.all([slack.waitFor(1), discord.waitFor(1)]);
    const slackBody = slack.requests[0].rawBody;
    expect(slackBody).toContain('*Export to PDF*');
    expect(slackBody).not.toMatch(/changelog/);
    expect((discord.requests[0].json.embeds as Record<string, unknown>[])[0].url).toBeUndefined();
  });
});
