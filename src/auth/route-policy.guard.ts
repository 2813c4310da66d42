import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError } from '../common/errors/api-error';
import { clientAddressKey, clientIp } from '../common/http/client-address';
import { setRequestProject } from '../common/http/request-context';
import { AuthMode, RoutePolicy, routePolicyOf } from '../common/http/route-policy';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RateLimitRule, RateLimiter } from '../infra/rate-limit/rate-limiter';
import { IdempotencyClaims, isIdempotent } from '../idempotency/idempotency-claims';
import { PLATFORM_LIMITS } from '../projects/plans';
import { ProjectRef } from '../projects/project-ref';
import { ProjectsService } from '../projects/projects.service';
import { assertPlanAllows, requiredFeatureOf } from '../projects/requires-feature';
import { AccountsService } from './accounts.service';
import { classifyBearer } from './api-key-format';
import { ApiKeysService, AuthenticatedKey } from './api-keys.service';
import { ANONYMOUS, Caller, idempotencyScopeOf, projectOfCaller, setAuthState } from './caller';
import { DashboardJwt } from './dashboard-jwt';
import { EndUserVerifier } from './end-user-verifier';
import { KeyGuessLimiter } from './key-guess-limiter';
import { KeyUsageRecorder } from './key-usage';

export const PROJECT_HEADER = 'x-service-project';

const JWT_MODES: ReadonlySet<AuthMode> = new Set(['dashboard', 'dashboard_account', 'signed_in']);

function bearerToken(req: Request, expectsJwt: boolean): string {
  const header = req.headers.authorization;
  if (!header) throw new ApiError('MISSING_AUTH', 'This endpoint needs an Authorization header.', { param: 'Authorization' });
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    const code = expectsJwt ? 'INVALID_CLERK_TOKEN' : 'INVALID_API_KEY';
    throw new ApiError(code, 'The Authorization header must be "Bearer <token>".', { param: 'Authorization' });
  }
  return match[1];
}

/**
 * The one global guard: every route's policy (@Auth, common/http/route-policy.ts) in one pass —
 * who is calling, the per-IP browser limit, the plan gate (@RequiresFeature), the end user
 * (user_id + user_hash), and the Idempotency-Key claim (@Idempotent). A route without a policy is
 * refused, so nothing is public by accident.
 */
@Injectable()
export class RoutePolicyGuard implements CanActivate {
  private readonly browserRule: RateLimitRule;
  private readonly browserLimitMessage: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly apiKeys: ApiKeysService,
    private readonly dashboardJwt: DashboardJwt,
    private readonly accounts: AccountsService,
    private readonly projects: ProjectsService,
    private readonly limiter: RateLimiter,
    private readonly endUsers: EndUserVerifier,
    private readonly idempotency: IdempotencyClaims,
    private readonly keyGuesses: KeyGuessLimiter,
    private readonly keyUsage: KeyUsageRecorder,
  ) {
    this.browserRule = {
      bucket: 'browser',
      limit: config.browserRateLimit ?? PLATFORM_LIMITS.browserCallsPerMinutePerIp,
      windowMs: 60_000,
    };
    this.browserLimitMessage = `Too many requests from this address; the limit is ${this.browserRule.limit} per minute.`;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const handler = context.getHandler();
    const policy = routePolicyOf(handler);
    if (!policy) throw new Error(`Route ${context.getClass().name}.${handler.name} has no @Auth policy`);
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const authenticated = this.authenticate(req, policy.mode, context);
    const caller = authenticated instanceof Promise ? await authenticated : authenticated;
    const project = projectOfCaller(caller);
    if (project) setRequestProject(req, project.id);
    // Secret-key answers carry personal data (emails, contacts): no browser or proxy cache may keep
    // them. Set before anything can fail, so errors and idempotent replays carry it too.
    if (caller.kind === 'secret_key') http.getResponse<Response>().setHeader('Cache-Control', 'no-store');
    // A secret key calling a browser route is a server, not limited per IP.
    if (policy.browser && caller.kind !== 'secret_key') await this.limitBrowser(req, http.getResponse<Response>());
    const feature = requiredFeatureOf(handler);
    if (feature && project) assertPlanAllows(project, feature);
    const endUser = policy.endUser && project ? await this.endUsers.resolve(req, policy.endUser, caller, project) : null;
    setAuthState(req, caller, endUser);
    if (isIdempotent(handler)) await this.idempotency.claim(req, idempotencyScopeOf(caller), handler);
    return true;
  }

  private authenticate(req: Request, mode: RoutePolicy['mode'], context: ExecutionContext): Promise<Caller> | Caller {
    if (mode === 'none') return ANONYMOUS;
    const expectsJwt = JWT_MODES.has(mode);
    const token = bearerToken(req, expectsJwt);
    const kind = classifyBearer(token);
    if (expectsJwt && kind === 'api_key') {
      throw new ApiError('WRONG_AUTH_TYPE', 'Dashboard endpoints take a signed-in user token, not an API key.', { param: 'Authorization' });
    }
    if (!expectsJwt && kind === 'jwt') {
      throw new ApiError('WRONG_AUTH_TYPE', 'This endpoint takes an API key, not a dashboard token.', { param: 'Authorization' });
    }
    if (expectsJwt) return this.authenticateDashboard(req, mode, context);
    // Nothing of another shape was ever issued: no lookup.
    if (kind !== 'api_key') throw new ApiError('INVALID_API_KEY', 'No such API key.', { param: 'Authorization' });
    // A key the cache holds needs no await: this is every request's path.
    const cached = this.apiKeys.cachedKey(token);
    if (cached) return this.callerOfKey(cached, mode);
    return this.lookUpKey(req, token, cached === null, mode);
  }

  /**
   * A key the cache does not hold, or holds as unknown. The lookup comes first, whatever the
   * address's state: a key that exists is answered as such (so a valid key is never refused for
   * its neighbours' guesses), and only an unknown one counts against the address, or is refused
   * with 429 while the address is over its budget.
   */
  private async lookUpKey(req: Request, token: string, knownUnknown: boolean, mode: AuthMode): Promise<Caller> {
    const key = knownUnknown ? null : await this.apiKeys.authenticate(token);
    if (!key) await this.keyGuesses.recordFailure(clientAddressKey(clientIp(req)));
    return this.callerOfKey(key, mode);
  }

  private callerOfKey(key: AuthenticatedKey | null, mode: AuthMode): Caller {
    if (!key) throw new ApiError('INVALID_API_KEY', 'No such API key.', { param: 'Authorization' });
    if (key.revoked) throw new ApiError('REVOKED_API_KEY', 'This API key was revoked.', { param: 'Authorization' });
    this.keyUsage.touch(key.id);
    if (key.type === 'secret') return { kind: 'secret_key', project: key.project, keyId: key.id };
    if (mode === 'secret')
      throw new ApiError('KEY_INSUFFICIENT_PERMISSIONS', 'This endpoint needs a secret key.', { param: 'Authorization' });
    return { kind: 'publishable_key', project: key.project, keyId: key.id };
  }

  private async authenticateDashboard(req: Request, mode: AuthMode, context: ExecutionContext): Promise<Caller> {
    const user = await this.dashboardJwt.authenticate(context);
    if (mode === 'signed_in') return { kind: 'signed_in', user };
    const account = await this.accounts.findBySubject(user.subject);
    if (!account) throw new ApiError('ACCOUNT_NOT_FOUND', 'This user has no account yet.');
    if (mode === 'dashboard_account') return { kind: 'dashboard_account', user, accountId: account.id };
    return { kind: 'dashboard_project', user, accountId: account.id, project: await this.projectOfAccount(req, account.id) };
  }

  private async projectOfAccount(req: Request, accountId: string): Promise<ProjectRef> {
    const projectId = req.headers[PROJECT_HEADER];
    if (typeof projectId !== 'string' || projectId.length === 0) {
      throw new ApiError('PROJECT_NOT_FOUND', 'Name the project in the X-Service-Project header.', { param: 'X-Service-Project' });
    }
    const project = await this.projects.findById(projectId);
    if (!project || project.accountId !== accountId) {
      throw new ApiError('PROJECT_NOT_FOUND', `Project ${projectId.slice(0, 64)} is not one of this account's projects.`, {
        param: 'X-Service-Project',
      });
    }
    return project;
  }

  /** Browser calls (spec: 120 requests per minute per IP address, an IPv6 client's /64; BROWSER_RATE_LIMIT lifts it). */
  private async limitBrowser(req: Request, res: Response): Promise<void> {
    const result = await this.limiter.enforce(this.browserRule, clientAddressKey(clientIp(req)), this.browserLimitMessage);
    res.setHeader('X-RateLimit-Limit', String(result.limit));
    res.setHeader('X-RateLimit-Remaining', String(result.remaining));
  }
}
