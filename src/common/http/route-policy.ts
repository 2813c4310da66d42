import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiHeader, ApiSecurity } from '@nestjs/swagger';
import type { ErrorCode } from '../errors/error-catalog';
import { ApiErrors } from './api-docs';
import { handlerMetadata } from './handler-metadata';

/**
 * Who may call a route, and what follows from it: the auth guard enforces it, CORS opens browser
 * routes, the per-IP browser limit applies to them, and OpenAPI documents the security and the
 * errors. One decorator sets all of it, so none can disagree; a test fails when a route has none.
 *
 * - `secret`: a secret key (a publishable key gets KEY_INSUFFICIENT_PERMISSIONS)
 * - `publishable`: a publishable or a secret key; a browser route (open CORS, per-IP limit when
 *   called with the publishable key)
 * - `none`: no credentials; `{ browser: true }` makes it a public browser route
 * - `dashboard`: a dashboard JWT, an account, and the project named by X-Service-Project
 * - `dashboard_account`: a dashboard JWT and an account, no project
 * - `signed_in`: a dashboard JWT only (used to create the account)
 *
 * `publishable` routes may also name the end user (spec: Notification identity verification):
 * `{ userHash: 'required' }` needs `user_id` with a valid `user_hash` from a browser;
 * `'unless_legacy'` waives the hash for projects whose `require_user_hash` is off. A secret key
 * needs no hash. `endUser: 'optional'` lets a browser call without `user_id` at all (anonymous),
 * but a `user_id` without a valid hash is still refused, never treated as anonymous.
 */
export type AuthMode = 'secret' | 'publishable' | 'none' | 'dashboard' | 'dashboard_account' | 'signed_in';

export type UserHashRule = 'required' | 'unless_legacy';

export interface RoutePolicy {
  readonly mode: AuthMode;
  /** Open CORS and the per-IP browser limit. */
  readonly browser: boolean;
  /** Set when the route acts for an end user identified by `user_id` (+ `user_hash`). */
  readonly endUser: { readonly userHash: UserHashRule; readonly optional: boolean } | null;
}

interface AuthOptions {
  browser?: boolean;
  userHash?: UserHashRule;
  endUser?: 'required' | 'optional';
}

export const ROUTE_POLICY = 'launch:route-policy';
/** Carries the policy into the OpenAPI document, which turns it into words and removes it (src/openapi). */
export const ROUTE_POLICY_EXTENSION = 'x-launch-route-policy';
export const USER_HASH_HEADER = 'X-Service-User-Hash';

export const SECURITY_SCHEMES = {
  secretKey: 'secret_key',
  publishableKey: 'publishable_key',
  dashboardJwt: 'dashboard_jwt',
} as const;

// RATE_LIMITED: too many unknown keys from one address (auth/key-guess-limiter.service.ts).
const KEY_ERRORS: ErrorCode[] = ['MISSING_AUTH', 'INVALID_API_KEY', 'REVOKED_API_KEY', 'WRONG_AUTH_TYPE', 'RATE_LIMITED', 'INTERNAL_ERROR'];
// SERVICE_UNAVAILABLE: the identity provider's key set could not be fetched.
const JWT_ERRORS: ErrorCode[] = ['MISSING_AUTH', 'WRONG_AUTH_TYPE', 'INVALID_CLERK_TOKEN', 'SERVICE_UNAVAILABLE', 'INTERNAL_ERROR'];

const MODE_DOCS: Record<AuthMode, { security: string[]; errors: ErrorCode[] }> = {
  secret: { security: [SECURITY_SCHEMES.secretKey], errors: [...KEY_ERRORS, 'KEY_INSUFFICIENT_PERMISSIONS'] },
  publishable: { security: [SECURITY_SCHEMES.publishableKey, SECURITY_SCHEMES.secretKey], errors: KEY_ERRORS },
  none: { security: [], errors: ['INTERNAL_ERROR'] },
  dashboard: { security: [SECURITY_SCHEMES.dashboardJwt], errors: [...JWT_ERRORS, 'ACCOUNT_NOT_FOUND', 'PROJECT_NOT_FOUND'] },
  dashboard_account: { security: [SECURITY_SCHEMES.dashboardJwt], errors: [...JWT_ERRORS, 'ACCOUNT_NOT_FOUND'] },
  signed_in: { security: [SECURITY_SCHEMES.dashboardJwt], errors: JWT_ERRORS },
};

function policyOf(mode: AuthMode, options: AuthOptions): RoutePolicy {
  if ((options.userHash || options.endUser) && mode !== 'publishable') {
    throw new Error(`@Auth('${mode}'): an end user (userHash) is only meaningful on publishable routes`);
  }
  const endUser = options.userHash ? { userHash: options.userHash, optional: options.endUser === 'optional' } : null;
  if (options.endUser && !endUser) throw new Error('@Auth: endUser needs a userHash rule');
  return Object.freeze({ mode, browser: mode === 'publishable' || options.browser === true, endUser });
}

/** Declares a route's policy; see the comment on AuthMode. */
export function Auth(mode: AuthMode, options: AuthOptions = {}): MethodDecorator {
  const policy = policyOf(mode, options);
  const docs = MODE_DOCS[mode];
  // Any route can meet a database or Redis outage (common/http/backend-outage.ts).
  const errors: ErrorCode[] = [...docs.errors, 'SERVICE_UNAVAILABLE'];
  if (policy.browser && mode === 'none') errors.push('RATE_LIMITED');
  // SEALED_VALUE_UNREADABLE: the user_hash check opens the project's sealed signing secret.
  if (policy.endUser) errors.push('USER_HASH_INVALID', 'VALIDATION_ERROR', 'SEALED_VALUE_UNREADABLE');
  const decorators = [
    SetMetadata(ROUTE_POLICY, policy),
    ApiExtension(ROUTE_POLICY_EXTENSION, policy),
    ...docs.security.map((scheme) => ApiSecurity(scheme)),
    ApiErrors(...errors),
  ];
  if (policy.endUser) {
    decorators.push(
      ApiHeader({
        name: USER_HASH_HEADER,
        required: false,
        description:
          "HMAC-SHA256 of `user_id` keyed with the project's notification signing secret, lowercase hex. Also accepted as the `user_hash` query parameter or body field. Not needed with a secret key.",
      }),
    );
  }
  return applyDecorators(...decorators);
}

/** The policy of a route handler. */
export const routePolicyOf = handlerMetadata<RoutePolicy>(ROUTE_POLICY);
