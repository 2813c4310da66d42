/**
 * The event types of the spec (Events → Event types) with the exact `data` fields of each. The
 * outbox refuses an event whose data has other fields, so a payload cannot drift from the spec.
 */
export const EVENT_CATALOG = {
  'waitlist.signup.created': {
    description: 'Someone joins the waitlist through the API, widget or hosted page (not CSV imports, not an email already on the list).',
    fields: [
      'signup_id',
      'email',
      'position',
      'referral_code',
      'referred',
      'source',
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'referrer',
      'landing_path',
      'metadata',
      'created_at',
    ],
  },
  'waitlist.signups.invited': {
    description: 'An invite wave is sent; one event per wave, not per person.',
    fields: ['count', 'invited', 'invited_at'],
  },
  'changelog.entry.published': {
    description: 'An entry goes live: published directly, from a draft, or at its scheduled time.',
    fields: [
      'entry_id',
      'title',
      'body_markdown',
      'version',
      'category',
      'published_at',
      'public_url',
      'audience',
      'labels',
      'cover_image_url',
      'cta_label',
      'cta_url',
    ],
  },
  'changelog.subscriber.created': {
    description: 'Someone subscribes to changelog emails (from a browser, when they confirm by email).',
    fields: ['subscriber_id', 'email', 'created_at', 'labels'],
  },
  'feedback.created': {
    description: "Feedback arrives, already classified. The submitter's email is never included; has_email says whether one exists.",
    fields: [
      'feedback_id',
      'feedback_text',
      'classification',
      'confidence',
      'summary',
      'user_id',
      'page_url',
      'rating',
      'has_email',
      'created_at',
    ],
  },
} as const satisfies Record<string, { description: string; fields: readonly string[] }>;

export type EventType = keyof typeof EVENT_CATALOG;

export const EVENT_TYPES = Object.keys(EVENT_CATALOG) as EventType[];

/** The names of the fields that are in `data` but not in the catalog, and those missing from it. */
export function fieldMismatch(type: EventType, data: Record<string, unknown>): { extra: string[]; missing: string[] } {
  const expected: readonly string[] = EVENT_CATALOG[type].fields;
  const given = Object.keys(data);
  return {
    extra: given.filter((field) => !expected.includes(field)),
    missing: expected.filter((field) => !given.includes(field)),
  };
}

/** The catalog's fields of `type`, taken from a larger record (a response DTO, say). */
export function pickEventData(type: EventType, source: object): Record<string, unknown> {
  const record = source as Record<string, unknown>;
  return Object.fromEntries(EVENT_CATALOG[type].fields.map((field) => [field, record[field]]));
}
