import type { Request } from 'express';
import { requestAuthOf, setRequestAuth } from '../common/http/request-context';
import type { ProjectRef } from '../projects/project-ref';

/**
 * Who is calling, as the route-policy guard established it. One variant per way in, so code that
 * needs a project, an account or a subject narrows on `kind` instead of casting.
 */
export type Caller =
  | { readonly kind: 'none' }
  | { readonly kind: 'secret_key'; readonly project: ProjectRef; readonly keyId: string }
  | { readonly kind: 'publishable_key'; readonly project: ProjectRef; readonly keyId: string }
  /** A dashboard JWT whose subject may have no account yet (`POST /v1/auth/provision`). */
  | { readonly kind: 'signed_in'; readonly user: DashboardUser }
  | { readonly kind: 'dashboard_account'; readonly user: DashboardUser; readonly accountId: string }
  | { readonly kind: 'dashboard_project'; readonly user: DashboardUser; readonly accountId: string; readonly project: ProjectRef };

export type CallerKind = Caller['kind'];

/** The verified claims of a dashboard JWT. */
export interface DashboardUser {
  readonly subject: string;
  readonly email: string | null;
}

/**
 * The person a browser call acts for (spec: Notification identity verification). `verified` is
 * false only where a legacy project waives the hash; a secret key is a server and is trusted.
 */
export interface EndUser {
  readonly userId: string;
  readonly verified: boolean;
}

export const ANONYMOUS: Caller = Object.freeze({ kind: 'none' });

/** The project of callers that have one. */
export function projectOfCaller(caller: Caller): ProjectRef | null {
  return 'project' in caller ? caller.project : null;
}

/** What an Idempotency-Key is scoped to: the API key, or the dashboard account. */
export function idempotencyScopeOf(caller: Caller): string | null {
  if (caller.kind === 'secret_key' || caller.kind === 'publishable_key') return caller.keyId;
  if (caller.kind === 'dashboard_account' || caller.kind === 'dashboard_project') return caller.accountId;
  return null;
}

/** What the route-policy guard leaves on a request for its handler: who calls, and for whom. */
export interface AuthState {
  readonly caller: Caller;
  readonly endUser: EndUser | null;
}

export function setAuthState(req: Request, state: AuthState): void {
  setRequestAuth(req, state);
}

export function callerOf(req: Request): Caller {
  return (requestAuthOf(req) as AuthState | null)?.caller ?? ANONYMOUS;
}

export function endUserOf(req: Request): EndUser | null {
  return (requestAuthOf(req) as AuthState | null)?.endUser ?? null;
}
