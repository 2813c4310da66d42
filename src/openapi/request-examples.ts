/**
 * Whole request bodies, written per operation, where an example assembled from the properties'
 * own examples would not run: fields that exclude each other (`user_id` and `user_ids`, `count` and
 * `specific_email`, a `segment` beside `audience: public`), or references to rows that a fresh
 * project does not have. An operation with modes gets one named example per mode, which Swagger UI
 * offers in a drop-down. test/openapi/request-examples.e2e-spec.ts runs every one of them.
 *
 * The first example of an operation is the one Swagger UI shows, so it runs on a new project; times
 * lie years ahead, so that an example that must name a future time stays valid.
 */

interface NamedRequestExample {
  summary: string;
  value: Record<string, unknown>;
}

/** Far enough ahead to stay in the future for the life of this API version. */
const FUTURE = '2030-06-01T09:00:00Z';

const ENTRY_TEXT = {
  title: 'Export to PDF',
  body_markdown: 'You can now **export** any report as PDF.',
  category: 'feature',
  version: '2.4.0',
};

const NOTIFICATION_TEXT = {
  title: 'Your export is ready',
  body: 'The PDF of March is ready to download.',
  action_url: '/reports/42',
  icon: 'check',
  category: 'billing',
};

export const REQUEST_EXAMPLES: Record<string, Record<string, NamedRequestExample>> = {
  createEntry: {
    public: {
      summary: 'Publish now, for everyone, with a banner and emails to subscribers',
      value: {
        ...ENTRY_TEXT,
        cover_image_url: 'https://cdn.example.com/export.png',
        cta_label: 'Try the export',
        cta_url: '/settings/export',
        audience: 'public',
        pinned: false,
        announcement: { style: 'banner', until: FUTURE },
        notify_subscribers: true,
        notify_in_app: true,
      },
    },
    segment: {
      summary: 'Publish now, only for users whose details match a segment',
      value: {
        ...ENTRY_TEXT,
        title: 'Team workspaces',
        body_markdown: 'Pro and Team plans can now share reports in a **team workspace**.',
        audience: 'segment',
        segment: { match: 'all', rules: [{ type: 'detail', key: 'plan', op: 'in', value: ['pro', 'team'] }] },
      },
    },
    draft: {
      summary: 'Save a draft with a label (create the label first: POST /v1/changelog/labels)',
      value: { ...ENTRY_TEXT, labels: ['export'], status: 'draft' },
    },
    scheduled: {
      summary: 'Schedule publication',
      value: { ...ENTRY_TEXT, scheduled_at: FUTURE, notify_subscribers: true },
    },
  },
  updateEntry: {
    edit: {
      summary: 'Edit a draft or scheduled entry',
      value: {
        title: 'Export to PDF and CSV',
        body_markdown: 'You can now export any report as PDF or CSV.',
        category: 'improvement',
        version: '2.4.1',
      },
    },
    publish: {
      summary: 'Publish a draft or scheduled entry now',
      value: { status: 'published', notify_subscribers: true },
    },
  },
  createNotification: {
    user: {
      summary: 'To one user',
      value: { user_id: 'user_42', ...NOTIFICATION_TEXT, actions: [{ label: 'Open report', url: '/reports/42' }], data: { report_id: 42 } },
    },
    group: {
      summary: 'To several users',
      value: {
        user_ids: ['user_1', 'user_2'],
        title: 'Your team has a new report',
        body: 'The March report is ready to read.',
        action_url: '/reports/42',
      },
    },
    contacts: {
      summary: 'To the contacts that match a filter (paying users who agreed to product updates)',
      value: {
        contacts: { stage: 'user', consent: 'product_updates', paying: true },
        title: 'New: PDF export',
        body: 'Any report can now be exported as PDF.',
        action_url: '/reports',
      },
    },
    all: {
      // No `send_at`: it must lie within 60 days, which no fixed time does for long.
      summary: 'To every user (a broadcast)',
      value: {
        audience: 'all',
        title: 'Maintenance on Sunday',
        body: 'The app is read-only from 02:00 to 03:00 UTC.',
        icon: 'warning',
        reactions: ['like', 'celebrate'],
      },
    },
  },
  // Slugs are unique across the server: not the `acme` that provisioning the example "Acme" takes.
  createProject: {
    project: { summary: 'A second project', value: { name: 'Acme Mobile', slug: 'acme-mobile' } },
  },
  createCheckout: {
    default_pages: {
      summary: "Back to the dashboard's billing page afterwards",
      value: { plan: 'indie' },
    },
    own_pages: {
      summary: 'Pages of your own (on a DASHBOARD_ORIGINS origin, here https://app.example.com)',
      value: {
        plan: 'indie',
        success_url: 'https://app.example.com/billing?checkout=success',
        cancel_url: 'https://app.example.com/billing?checkout=cancelled',
      },
    },
  },
  createPortalSession: {
    default_page: { summary: "Back to the dashboard's billing page afterwards", value: {} },
    own_page: {
      summary: 'A page of your own (on a DASHBOARD_ORIGINS origin, here https://app.example.com)',
      value: { return_url: 'https://app.example.com/billing' },
    },
  },
  previewAudience: {
    users: {
      summary: 'Several users, by id and by email',
      value: { user_ids: ['user_1', 'user_2'], emails: ['ada@example.com'] },
    },
    contacts: {
      summary: 'The contacts that match a filter',
      value: { contacts: { stage: 'user', consent: 'product_updates', detail: ['plan=pro'], paying: true } },
    },
  },
  inviteSignups: {
    count: {
      summary: 'Invite the next people in line',
      value: { count: 50 },
    },
    specific_email: {
      summary: 'Invite one person on the list',
      value: { specific_email: 'ada@example.com' },
    },
  },
  createSubscriber: {
    everything: {
      summary: 'Follow every entry',
      value: { email: 'ada@example.com' },
    },
    labels: {
      summary: 'Follow some topics (label slugs of the project)',
      value: { email: 'ada@example.com', labels: ['api', 'mobile'] },
    },
  },
};
