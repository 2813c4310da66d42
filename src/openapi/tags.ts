/**
 * The tags of the API reference, in reading order: the first call, then the products an integrator
 * adds one by one, then the dashboard. The browser-facing and public variants of a product follow
 * the products, and the operator's plumbing comes last. Swagger UI shows the groups in this order.
 */
export const TAGS: readonly { name: string; description: string }[] = [
  {
    name: 'Project',
    description: 'Start here: check that a key works and see the plan, its features and its limits; the health probe.',
  },
  {
    name: 'Waitlist',
    description: 'Signups with double opt-in, positions, referral links and invites; the hosted signup page.',
  },
  {
    name: 'Changelog',
    description: 'Entries (draft, scheduled, published, archived), labels, subscribers and their emails, reading statistics.',
  },
  {
    name: 'Notifications',
    description: 'Send in-app notifications to everyone, a segment or one user; identity verification and monthly usage.',
  },
  {
    name: 'Webhooks',
    description: 'Endpoints that receive signed events, their deliveries, retries and signing secrets.',
  },
  {
    name: 'Feedback',
    description:
      'Collect feedback from a widget or a server; each record is classified on arrival (bug, feature request, praise, billing, support, spam…).',
  },
  {
    name: 'Contacts',
    description: 'Everyone the service knows by email across products, and erasure on request.',
  },
  {
    name: 'Dashboard',
    description: 'Routes for the dashboard, called with a signed-in user token: account, projects, keys and per-project views.',
  },
  {
    name: 'Dashboard: billing',
    description: "The project's subscription: current plan, checkout and the billing portal.",
  },
  {
    name: 'Dashboard: custom domains',
    description: 'Serve public pages from your own hostname: register, verify by DNS, remove.',
  },
  {
    name: 'Dashboard: email templates',
    description: 'Replace the subject and body of the emails the service sends on your behalf; preview them.',
  },
  {
    name: 'Changelog: widget',
    description: 'What the embedded changelog widget calls from the browser with the publishable key.',
  },
  {
    name: 'Notifications: bell',
    description: 'What the notification bell calls for one end user: inbox, unread count, read, click, archive, reactions.',
  },
  {
    name: 'Browser scripts',
    description: 'The embeddable notification bell and changelog widget (script tags on any site), and their content-hashed releases.',
  },
  {
    name: 'Changelog (public)',
    description: 'Public changelog pages and feeds (HTML, RSS, Atom, JSON Feed), with no key.',
  },
  {
    name: 'Analytics',
    description: 'Tell the service who a user is, so notifications and contacts can reach them.',
  },
  {
    name: 'Revenue',
    description:
      'A read-only payment-processor connection (a restricted key), its sync, and MRR figures that say how they were computed (Indie and up).',
  },
  {
    name: 'Billing',
    description: "The payment processor's webhook; called by the processor, not by integrators.",
  },
];
