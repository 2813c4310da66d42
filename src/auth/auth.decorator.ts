import { ExecutionContext, SetMetadata, applyDecorators, createParamDecorator } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiErrors } from '../common/http/api-docs';
import { Caller, callerOf } from '../common/http/request-context';
import { ErrorCode } from '../common/errors/error-catalog';
import type { ProjectRef } from '../projects/project-ref';

/**
 * How a route authenticates. One decorator sets the guard's policy and the OpenAPI security of the
 * route, so the two cannot disagree; a test fails when a route has none.
 *
 * - `secret`: a secret key (publishable keys get KEY_INSUFFICIENT_PERMISSIONS)
 * - `publishable`: a publishable or a secret key; browser endpoint: open CORS, per-IP rate limit
 *   when called with the publishable key
 * - `none`: no credentials; `{ browser: true }` makes it a public browser endpoint
 * - `dashboard`: a dashboard JWT, an account, and the project named by X-Service-Project
 * - `dashboard_account`: a dashboard JWT and an account, no project
 * - `signed_in`: a dashboard JWT only (used to create the account)
 */
export type AuthMode = 'secret' | 'publishable' | 'none' | 'dashboard' | 'dashboard_account' | 'signed_in';

export interface AuthPolicy {
  mode: AuthMode;
  browser: boolean;
}

export const AUTH_POLICY = 'launch:auth-policy';

export const SECURITY_SCHEMES = {
  secretKey: 'secret_key',
  publishableKey: 'publishable_key',
  dashboardJwt: 'dashboard_jwt',
} as const;

const KEY_ERRORS: ErrorCode[] = ['MISSING_AUTH', 'INVALID_API_KEY', 'REVOKED_API_KEY', 'WRONG_AUTH_TYPE', 'INTERNAL_ERROR'];
const JWT_ERRORS: ErrorCode[] = ['MISSING_AUTH', 'WRONG_AUTH_TYPE', 'INVALID_CLERK_TOKEN', 'INTERNAL_ERROR'];

const MODE_DOCS: Record<AuthMode, { security: string[]; errors: ErrorCode[] }> = {
  secret: { security: [SECURITY_SCHEMES.secretKey], errors: [...KEY_ERRORS, 'KEY_INSUFFICIENT_PERMISSIONS'] },
  publishable: { security: [SECURITY_SCHEMES.publishableKey, SECURITY_SCHEMES.secretKey], errors: [...KEY_ERRORS, 'RATE_LIMITED'] },
  none: { security: [], errors: ['INTERNAL_ERROR'] },
  dashboard: { security: [SECURITY_SCHEMES.dashboardJwt], errors: [...JWT_ERRORS, 'ACCOUNT_NOT_FOUND', 'PROJECT_NOT_FOUND'] },
  dashboard_account: { security: [SECURITY_SCHEMES.dashboardJwt], errors: [...JWT_ERRORS, 'ACCOUNT_NOT_FOUND'] },
  signed_in: { security: [SECURITY_SCHEMES.dashboardJwt], errors: JWT_ERRORS },
};

export function Auth(mode: AuthMode, options: { browser?: boolean } = {}): MethodDecorator {
  const policy: AuthPolicy = { mode, browser: mode === 'publishable' || options.browser === true };
  const docs = MODE_DOCS[mode];
  const errors: ErrorCode[] = policy.browser && mode === 'none' ? [...docs.errors, 'RATE_LIMITED'] : docs.errors;
  return applyDecorators(SetMetadata(AUTH_POLICY, policy), ...docs.security.map((scheme) => ApiSecurity(scheme)), ApiErrors(...errors));
}

/** The authenticated caller of this request. */
export const CurrentCaller = createParamDecorator((_: unknown, context: ExecutionContext): Caller => {
  return callerOf(context.switchToHttp().getRequest<Request>());
});

/** The project of this request: from the API key, or from X-Service-Project on dashboard routes. */
export const CurrentProject = createParamDecorator((_: unknown, context: ExecutionContext): ProjectRef => {
  const project = callerOf(context.switchToHttp().getRequest<Request>()).project;
  if (!project) throw new Error('CurrentProject used on a route whose auth mode has no project');
  return project;
});
