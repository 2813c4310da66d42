import { ERRORS, type ErrorCode } from '../common/errors/error-catalog';

/**
 * One realistic failure per catalog code, shown as the example of every documented response that can
 * carry it. Typed by `ErrorCode`, so a new catalog code does not compile until it has an example.
 * Messages follow what the code really says (grep the code's `new ApiError`); remediations are the
 * catalog's defaults.
 */
const EXAMPLES: Record<ErrorCode, { message: string; param?: string }> = {
  MISSING_AUTH: { message: 'This endpoint needs an Authorization header.', param: 'Authorization' },
  INVALID_API_KEY: { message: 'No such API key.', param: 'Authorization' },
  REVOKED_API_KEY: { message: 'This API key was revoked.', param: 'Authorization' },
  WRONG_AUTH_TYPE: { message: 'This endpoint takes an API key, not a dashboard token.', param: 'Authorization' },
  INVALID_CLERK_TOKEN: { message: 'The sign-in token has expired.', param: 'Authorization' },
  ACCOUNT_NOT_FOUND: { message: 'This user has no account yet.' },
  VALIDATION_ERROR: { message: 'email must be an email.', param: 'email' },
  INVALID_PLAN: { message: '"enterprise" is not a plan; use indie or builder.', param: 'plan' },
  RATE_LIMITED: { message: 'Too many requests from this address; the limit is 120 per minute.' },
  PLAN_LIMIT_REACHED: { message: 'The free plan allows 1000 notifications a month.' },
  PLAN_UPGRADE_REQUIRED: { message: 'This needs the indie plan or higher; the project is on free.' },
  NOT_FOUND: { message: 'No entry cl_01JD3Z4Q9X8V7T6S5R4Q3P2N1M in this project.', param: 'id' },
  CANNOT_EDIT_PUBLISHED: { message: 'A published entry keeps its title.', param: 'title' },
  HOSTNAME_ALREADY_REGISTERED: { message: 'updates.example.com is verified by another project.', param: 'hostname' },
  IDEMPOTENCY_CONFLICT: { message: 'This Idempotency-Key was already used with a different request body.', param: 'Idempotency-Key' },
  DUPLICATE_SIGNUP: { message: 'This email is already on the waitlist.', param: 'email' },
  BILLING_NOT_CONFIGURED: { message: 'Billing is not configured on this server.' },
  NO_BILLING_ACCOUNT: { message: 'This project has no billing account yet.' },
  BILLING_PORTAL_UNAVAILABLE: { message: 'The billing portal did not answer.' },
  CUSTOM_DOMAIN_NOT_CONFIGURED: { message: 'Custom domains are not configured on this server.' },
  CUSTOM_DOMAIN_LIMIT_REACHED: { message: 'The indie plan allows 1 custom hostname.', param: 'hostname' },
  KEY_INSUFFICIENT_PERMISSIONS: { message: 'This endpoint needs a secret key.', param: 'Authorization' },
  API_KEY_LIMIT_REACHED: { message: "This project already has 5 active live secret keys, the plan's limit.", param: 'type' },
  INVALID_SLUG: { message: 'A slug is 1 to 40 lowercase letters, digits and hyphens.', param: 'slug' },
  SLUG_TAKEN: { message: 'The slug "acme" is taken.', param: 'slug' },
  PROJECT_LIMIT_REACHED: { message: 'This account has 2 projects, as many as the free plan allows.' },
  LAST_PROJECT: { message: 'This is the only project of the account; an account keeps at least one.', param: 'id' },
  PROJECT_NOT_FOUND: { message: 'Name the project in the X-Service-Project header.', param: 'X-Service-Project' },
  SLUG_CHANGE_LIMIT_REACHED: {
    message: 'The slug changed twice in the last 30 days; it can change again at 2026-04-01T09:30:00.000Z.',
    param: 'slug',
  },
  PROCESSOR_NOT_CONNECTED: { message: 'No payment processor is connected to this project.' },
  PROCESSOR_ALREADY_CONNECTED: { message: 'A payment processor key is already connected.' },
  PROCESSOR_KEY_NOT_RESTRICTED: { message: 'This is not a restricted key.', param: 'key' },
  PROCESSOR_KEY_INVALID: { message: 'The processor did not recognise this key.', param: 'key' },
  PROCESSOR_KEY_MISSING_PERMISSION: { message: 'The key cannot read subscriptions.', param: 'key' },
  PROCESSOR_CONNECTION_LIMIT_REACHED: { message: 'The indie plan allows 1 processor connection.' },
  PROCESSOR_CONNECT_NOT_CONFIGURED: { message: 'Processor connections are not configured on this server.' },
  PROCESSOR_UNAVAILABLE: { message: 'The payment processor did not answer the key check; nothing was connected.' },
  CONTACT_NOT_FOUND: { message: 'This project has no contact ct_01JD3Z4Q9X8V7T6S5R4Q3P2N1M.', param: 'id' },
  EMAIL_TEMPLATE_INVALID: { message: 'Unknown placeholder {{first_name}}.', param: 'body' },
  INTERNAL_ERROR: { message: 'Something went wrong on our side.' },
  TURNSTILE_FAILED: { message: 'The bot check failed; nothing was saved.', param: 'turnstile_token' },
  USER_HASH_INVALID: { message: 'user_hash is required with user_id.', param: 'user_hash' },
  SIGNING_SECRET_ALREADY_SHOWN: { message: 'This project already has a notification signing secret; it was shown once.' },
  INVALID_WEBHOOK_URL: { message: 'The URL must use https://.', param: 'url' },
  WEBHOOK_LIMIT_REACHED: { message: 'The indie plan allows 2 webhook endpoints; this project has 2.' },
  NO_REACHABLE_RECIPIENTS: { message: 'Nobody in this group has a user id the service knows; nothing was sent.', param: 'audience' },
  TOO_MANY_RECIPIENTS: { message: 'This group has 12000 people; a send reaches at most 10000.', param: 'audience' },
  PAYLOAD_TOO_LARGE: { message: 'The body is larger than 1 MB.', param: 'body' },
  SERVICE_UNAVAILABLE: { message: 'A backing service (database or Redis) did not answer in time.' },
  TURNSTILE_UNAVAILABLE: { message: 'The bot check could not be completed; nothing was saved. Retry in a few moments.' },
  SEALED_VALUE_UNREADABLE: { message: "A secret stored for this project cannot be decrypted with the server's ENCRYPTION_KEY." },
  UNSUPPORTED_MEDIA_TYPE: { message: 'Send the body uncompressed, in UTF-8.', param: 'body' },
  ALREADY_SUBSCRIBED: {
    message: 'This email already follows the changelog (confirmed, or waiting for confirmation).',
    param: 'email',
  },
  ENTRY_ARCHIVED: { message: 'This entry is archived; archived entries are read-only.', param: 'id' },
  ENTRY_NOT_PUBLISHED: { message: 'This entry has not been published, so nobody has read it yet.', param: 'id' },
  BILLING_SUBSCRIPTION_EXISTS: { message: 'The project already has a trialing subscription.', param: 'plan' },
  LABEL_SLUG_TAKEN: { message: 'Another label of this project has the slug "billing".', param: 'slug' },
  REQUEST_HEADERS_TOO_LARGE: { message: 'The request headers are larger than 16 KB.', param: 'Authorization' },
};

const EXAMPLE_REQUEST_ID = 'req_01JD3Z4Q9X8V7T6S5R4Q3P2N1M';

/** The failure envelope the server writes for `code`, as an OpenAPI example object. */
export function errorExample(code: ErrorCode): { summary: string; value: object } {
  const { message, param } = EXAMPLES[code];
  return {
    summary: `${code} (${ERRORS[code].status})`,
    value: {
      data: null,
      error: { code, message, remediation: ERRORS[code].remediation, ...(param ? { param } : {}), request_id: EXAMPLE_REQUEST_ID },
    },
  };
}
