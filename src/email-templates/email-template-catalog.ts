/**
 * Every email the service sends to a project's people, with its placeholders and default text.
 * Owners may replace the subject and body of each (email-templates.service.ts); the sending code
 * renders the owner's version, or the default here, through one engine (email-template-engine.ts).
 */
export const EMAIL_TEMPLATE_NAMES = [
  'waitlist_confirmation',
  'waitlist_invite',
  'changelog_subscriber_confirmation',
  'changelog_entry',
] as const;
export type EmailTemplateName = (typeof EMAIL_TEMPLATE_NAMES)[number];

export interface PlaceholderSpec {
  readonly name: string;
  readonly description: string;
  /** Must appear in the body, outside any section. */
  readonly required: boolean;
  /** A value for previews. */
  readonly sample: string;
  /** HTML the service renders itself (the entry body): body only, never the subject. */
  readonly html?: boolean;
}

export interface EmailTemplateText {
  readonly subject: string;
  readonly body: string;
}

export interface EmailTemplateSpec {
  readonly description: string;
  readonly placeholders: readonly PlaceholderSpec[];
  readonly defaults: EmailTemplateText;
}

const PROJECT_NAME: PlaceholderSpec = { name: 'project_name', description: "The project's name.", required: false, sample: 'Acme' };
const UNSUBSCRIBE: PlaceholderSpec = {
  name: 'unsubscribe_url',
  description: 'One-click unsubscribe link; every email must carry it.',
  required: true,
  sample: 'https://launch.example/v1/waitlist/unsubscribe?token=sample',
};

export const EMAIL_TEMPLATES: Readonly<Record<EmailTemplateName, EmailTemplateSpec>> = {
  waitlist_confirmation: {
    description: 'Double opt-in email sent when someone joins the waitlist.',
    placeholders: [
      PROJECT_NAME,
      { name: 'position', description: 'Their place on the waitlist.', required: false, sample: '42' },
      {
        name: 'confirm_url',
        description: 'The link that confirms the address.',
        required: true,
        sample: 'https://launch.example/v1/waitlist/confirm?token=sample',
      },
      {
        name: 'referral_link',
        description: 'Their personal referral link.',
        required: false,
        sample: 'https://launch.example/w/acme?ref=K7M2Q9XA',
      },
      UNSUBSCRIBE,
    ],
    defaults: {
      subject: 'Confirm your spot on the {{project_name}} waitlist',
      body: [
        'You joined the {{project_name}} waitlist at position {{position}}.',
        '',
        'Confirm your email address: {{confirm_url}}',
        '',
        'Share your referral link: {{referral_link}}',
        '',
        'If this was not you, ignore this email, or unsubscribe: {{unsubscribe_url}}',
      ].join('\n'),
    },
  },
  waitlist_invite: {
    description: "Sent when a person's turn on the waitlist comes (invite waves).",
    placeholders: [PROJECT_NAME, UNSUBSCRIBE],
    defaults: {
      subject: "You're invited to {{project_name}}",
      body: [
        'Good news: your spot on the {{project_name}} waitlist has come up, and you are invited.',
        '{{project_name}} will be in touch with how to get started.',
        '',
        'No longer interested? Unsubscribe: {{unsubscribe_url}}',
      ].join('\n'),
    },
  },
  changelog_subscriber_confirmation: {
    description: 'Double opt-in email sent when someone subscribes to the changelog from a browser.',
    placeholders: [
      PROJECT_NAME,
      {
        name: 'confirm_url',
        description: 'The link that confirms the subscription.',
        required: true,
        sample: 'https://launch.example/v1/changelog/subscribers/confirm?token=sample',
      },
      {
        name: 'preferences_url',
        description: 'Where they choose their topics (labels).',
        required: false,
        sample: 'https://launch.example/v1/changelog/subscribers/preferences?token=sample',
      },
      { ...UNSUBSCRIBE, sample: 'https://launch.example/v1/changelog/subscribers/unsubscribe?token=sample' },
    ],
    defaults: {
      subject: 'Confirm your subscription to the {{project_name}} changelog',
      body: [
        'Someone (we hope you) asked to get the {{project_name}} changelog by email.',
        '',
        'Confirm your subscription: {{confirm_url}}',
        '',
        'If this was not you, ignore this email: nothing is sent until the address is confirmed.',
        '',
        'Choose your topics: {{preferences_url}}',
        'Unsubscribe: {{unsubscribe_url}}',
      ].join('\n'),
    },
  },
  changelog_entry: {
    description: 'A published changelog entry, sent to each confirmed subscriber of its labels.',
    placeholders: [
      PROJECT_NAME,
      { name: 'title', description: "The entry's title.", required: false, sample: 'Dark mode is here' },
      {
        name: 'version',
        description: "The entry's version; empty when it has none (use {{#version}}…{{/version}}).",
        required: false,
        sample: 'v2.1',
      },
      {
        name: 'entry_body',
        description: "The entry's body: formatted in the HTML part, plain in the text part. Body only.",
        required: false,
        sample: 'Switch themes from **Settings**: light, dark, or the system setting.',
        html: true,
      },
      {
        name: 'public_url',
        description: "The entry's page.",
        required: false,
        sample: 'https://launch.example/changelog/acme/ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
      },
      {
        name: 'preferences_url',
        description: 'Where they choose their topics (labels).',
        required: false,
        sample: 'https://launch.example/v1/changelog/subscribers/preferences?token=sample',
      },
      { ...UNSUBSCRIBE, sample: 'https://launch.example/v1/changelog/subscribers/unsubscribe?token=sample' },
    ],
    defaults: {
      subject: '{{title}}{{#version}} ({{version}}){{/version}}',
      body: [
        '{{title}}{{#version}} ({{version}}){{/version}}',
        '',
        '{{entry_body}}',
        '',
        'Read it online: {{public_url}}',
        '',
        'You follow the {{project_name}} changelog.',
        'Choose your topics: {{preferences_url}}',
        'Unsubscribe: {{unsubscribe_url}}',
      ].join('\n'),
    },
  },
};

export function isEmailTemplateName(value: string): value is EmailTemplateName {
  return (EMAIL_TEMPLATE_NAMES as readonly string[]).includes(value);
}
