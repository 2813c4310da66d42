/**
 * The one error catalog. Every code the specification names is here with its HTTP status and a
 * default remediation; features throw `new ApiError('CODE', message, { param })` and never pick a
 * status themselves. Codes below the spec's list are our own additions (the spec allows "codes
 * outside this list").
 */
interface ErrorSpec {
  readonly status: number;
  readonly remediation: string;
}

export const ERRORS = {
  MISSING_AUTH: { status: 401, remediation: 'Send your key as "Authorization: Bearer <key>".' },
  INVALID_API_KEY: { status: 401, remediation: 'Check the key for typos, or create a new one for this project.' },
  REVOKED_API_KEY: { status: 401, remediation: 'This key was revoked; switch to an active key of the same project.' },
  WRONG_AUTH_TYPE: {
    status: 401,
    remediation: 'Dashboard endpoints take a signed-in user token; product endpoints take an API key. Use the one this endpoint expects.',
  },
  INVALID_CLERK_TOKEN: { status: 401, remediation: 'Sign in again to get a fresh token from the identity provider.' },
  ACCOUNT_NOT_FOUND: { status: 404, remediation: 'Call POST /v1/auth/provision once to create the account for this user.' },
  VALIDATION_ERROR: { status: 400, remediation: 'Fix the field named in `param` and send the request again.' },
  INVALID_PLAN: { status: 400, remediation: 'Use one of the plan names `indie` or `builder`.' },
  RATE_LIMITED: { status: 429, remediation: 'Wait for the number of seconds in the Retry-After header, then retry.' },
  PLAN_LIMIT_REACHED: { status: 403, remediation: 'Upgrade the plan, or wait for the quota to reset.' },
  PLAN_UPGRADE_REQUIRED: { status: 403, remediation: 'Upgrade the project to a plan that includes this feature.' },
  NOT_FOUND: { status: 404, remediation: 'Check the id and that it belongs to the project of this key.' },
  CANNOT_EDIT_PUBLISHED: {
    status: 409,
    remediation: 'Published entries keep their text; change only labels, pinned, expires_at or announcement, or publish a new entry.',
  },
  HOSTNAME_ALREADY_REGISTERED: {
    status: 409,
    remediation: 'Another project verified this hostname first; use a hostname no other project holds verified.',
  },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    remediation: 'Use a new Idempotency-Key for a different request, or resend the original body unchanged.',
  },
  DUPLICATE_SIGNUP: { status: 409, remediation: 'This email is already on the list; look it up instead of adding it again.' },
  BILLING_NOT_CONFIGURED: { status: 503, remediation: 'The operator has not configured billing on this server.' },
  NO_BILLING_ACCOUNT: { status: 404, remediation: 'Complete a checkout first; the billing account is created then.' },
  BILLING_PORTAL_UNAVAILABLE: { status: 502, remediation: 'The billing portal did not answer; retry in a few moments.' },
  CUSTOM_DOMAIN_NOT_CONFIGURED: { status: 503, remediation: 'The operator has not configured custom domains on this server.' },
  CUSTOM_DOMAIN_LIMIT_REACHED: { status: 403, remediation: 'Remove a hostname or upgrade the plan to add more.' },
  KEY_INSUFFICIENT_PERMISSIONS: {
    status: 403,
    remediation: 'This endpoint needs a secret key (svc_live_…); publishable keys are for browser endpoints only.',
  },
  API_KEY_LIMIT_REACHED: { status: 422, remediation: 'Revoke an unused key of this type before creating another.' },
  INVALID_SLUG: { status: 422, remediation: 'Use 1 to 40 lowercase letters, digits and hyphens.' },
  SLUG_TAKEN: { status: 409, remediation: 'Choose another slug; this one is in use, reserved or recently released.' },
  PROJECT_LIMIT_REACHED: { status: 403, remediation: 'Delete a project or upgrade the plan to create more.' },
  LAST_PROJECT: { status: 409, remediation: 'Create another project before deleting this one.' },
  PROJECT_NOT_FOUND: {
    status: 404,
    remediation: 'Send the id of one of your projects in the X-Service-Project header (GET /v1/dashboard/projects lists them).',
  },
  SLUG_CHANGE_LIMIT_REACHED: {
    status: 429,
    remediation: 'The slug can change again after the date in this message; old links keep working.',
  },
  PROCESSOR_NOT_CONNECTED: { status: 409, remediation: 'Connect a payment processor to the project first.' },
  PROCESSOR_ALREADY_CONNECTED: { status: 409, remediation: 'Disconnect the current processor key before connecting another.' },
  PROCESSOR_KEY_NOT_RESTRICTED: { status: 422, remediation: 'Create a restricted, read-only key at the processor and use that.' },
  PROCESSOR_KEY_INVALID: { status: 422, remediation: 'Copy the key again from the processor dashboard; it was not recognised.' },
  PROCESSOR_KEY_MISSING_PERMISSION: { status: 422, remediation: 'Grant the read permission named in this message to the key.' },
  PROCESSOR_CONNECTION_LIMIT_REACHED: { status: 403, remediation: 'Disconnect another connection or upgrade the plan.' },
  PROCESSOR_CONNECT_NOT_CONFIGURED: { status: 503, remediation: 'The operator must set ENCRYPTION_KEY on the server.' },
  // Ours: the key check could not reach the processor (network, timeout, 5xx); nothing was connected.
  PROCESSOR_UNAVAILABLE: { status: 502, remediation: 'The payment processor did not answer; retry in a few moments.' },
  CONTACT_NOT_FOUND: { status: 404, remediation: 'Check the contact id; GET /v1/contacts lists the contacts of this project.' },
  EMAIL_TEMPLATE_INVALID: {
    status: 422,
    remediation: 'Use only the documented placeholders and keep subject and body within their limits.',
  },
  INTERNAL_ERROR: { status: 500, remediation: 'Retry the request; if it keeps failing, contact support with the request_id.' },
  TURNSTILE_FAILED: { status: 400, remediation: 'Complete the bot check again and send the new token.' },
  USER_HASH_INVALID: {
    status: 403,
    remediation: 'Compute user_hash on your server as the HMAC-SHA256 (hex) of the user_id, keyed with the project signing secret.',
  },
  SIGNING_SECRET_ALREADY_SHOWN: { status: 409, remediation: 'The secret is shown once; rotate it to get a new one.' },
  INVALID_WEBHOOK_URL: { status: 422, remediation: 'Use a public https:// URL on the default port, without credentials.' },
  WEBHOOK_LIMIT_REACHED: { status: 403, remediation: 'Delete an endpoint or upgrade the plan to add more.' },
  NO_REACHABLE_RECIPIENTS: {
    status: 422,
    remediation: 'Identify these people first (POST /v1/analytics/identify) so the service knows their user ids.',
  },
  TOO_MANY_RECIPIENTS: { status: 422, remediation: 'Split the group into sends of at most 10000 people.' },
  // Our own additions.
  PAYLOAD_TOO_LARGE: { status: 413, remediation: 'Send a smaller body; requests are limited to 1 MB.' },
  SERVICE_UNAVAILABLE: { status: 503, remediation: 'A backing service is down; retry in a few moments.' },
  TURNSTILE_UNAVAILABLE: { status: 503, remediation: 'The bot-check service could not be reached; retry in a few moments.' },
  SEALED_VALUE_UNREADABLE: {
    status: 503,
    remediation:
      'The server cannot decrypt a secret it stored for this project: it runs with another ENCRYPTION_KEY than the one that sealed it, or the stored value is damaged. Retrying does not help; the operator must restart it with the previous ENCRYPTION_KEY, or re-seal the stored secrets under the new key (CLI: encryption:reseal).',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    remediation: 'Send the body as UTF-8 JSON, uncompressed or with Content-Encoding gzip, deflate or br.',
  },
  ALREADY_SUBSCRIBED: {
    status: 409,
    remediation: 'This email already follows the changelog; change its labels with PUT /v1/changelog/subscribers/{id}/labels.',
  },
  ENTRY_ARCHIVED: {
    status: 409,
    remediation: 'Archived entries are read-only; unarchive it first (POST /v1/changelog/entries/{id}/unarchive), or delete it.',
  },
  ENTRY_NOT_PUBLISHED: {
    status: 409,
    remediation: 'After-reading numbers start at publication: publish the entry first (or wait for its scheduled time).',
  },
  BILLING_SUBSCRIPTION_EXISTS: {
    status: 409,
    remediation: 'Change or cancel the plan in the billing portal (POST /v1/dashboard/billing/portal).',
  },
  LABEL_SLUG_TAKEN: { status: 409, remediation: 'Another label of this project has this slug; choose another slug or rename that label.' },
  REQUEST_HEADERS_TOO_LARGE: {
    status: 431,
    remediation: 'Send shorter headers: the request headers together must stay under 16 KB. Check the Authorization token.',
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];
