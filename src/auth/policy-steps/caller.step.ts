import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '../../common/errors/api-error';
import { clientAddressKey, clientIp } from '../../common/http/client-address';
import { setRequestProject } from '../../common/http/request-context';
import type { AuthMode } from '../../common/http/route-policy';
import type { ProjectRef } from '../../projects/project-ref';
import { ProjectsService } from '../../projects/projects.service';
import { AccountsService } from '../../accounts/accounts.service';
import { classifyBearer } from '../api-key-format';
import { ApiKeysService, AuthenticatedKey } from '../api-keys.service';
import { ANONYMOUS, Caller, projectOfCaller } from '../caller';
import { DashboardJwt } from '../dashboard-jwt.strategy';
import { KeyGuessLimiter } from '../key-guess-limiter.service';
import { KeyUsageRecorder } from '../key-usage.service';
import type { PolicyContext, PolicyStep } from './policy-step';

const PROJECT_HEADER = 'x-service-project';

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
 * The first step: who is calling, by the route's auth mode (an API key, a dashboard JWT, or
 * nobody). A key the cache holds is answered without an await, which is every API request's
 * path. Once the caller is known, the request's log line names its project, and a secret key's
 * answers are marked `no-store` before any later step can fail, so errors and idempotent replays
 * carry it too (they hold emails and contacts no browser or proxy may keep).
 */
@Injectable()
export class CallerStep implements PolicyStep {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly dashboardJwt: DashboardJwt,
    private readonly accounts: AccountsService,
    private readonly projects: ProjectsService,
    private readonly keyGuesses: KeyGuessLimiter,
    private readonly keyUsage: KeyUsageRecorder,
  ) {}

  run(context: PolicyContext): Promise<void> | void {
    const { mode } = context.policy;
    if (mode === 'none') return admit(context, ANONYMOUS);
    const expectsJwt = JWT_MODES.has(mode);
    const token = bearerToken(context.req, expectsJwt);
    const kind = classifyBearer(token);
    if (expectsJwt && kind === 'api_key') {
      throw new ApiError('WRONG_AUTH_TYPE', 'Dashboard endpoints take a signed-in user token, not an API key.', { param: 'Authorization' });
    }
    if (!expectsJwt && kind === 'jwt') {
      throw new ApiError('WRONG_AUTH_TYPE', 'This endpoint takes an API key, not a dashboard token.', { param: 'Authorization' });
    }
    if (expectsJwt) return this.authenticateDashboard(context, mode);
    // Nothing of another shape was ever issued: no lookup.
    if (kind !== 'api_key') throw new ApiError('INVALID_API_KEY', 'No such API key.', { param: 'Authorization' });
    const cached = this.apiKeys.cachedKey(token);
    if (cached) return admit(context, this.callerOfKey(cached, mode));
    return this.lookUpKey(context, token, cached === null, mode);
  }

  /**
   * A key the cache does not hold, or holds as unknown. The lookup comes first, whatever the
   * address's state: a key that exists is answered as such (so a valid key is never refused for
   * its neighbours' guesses), and only an unknown one counts against the address, or is refused
   * with 429 while the address is over its budget.
   */
  private async lookUpKey(context: PolicyContext, token: string, knownUnknown: boolean, mode: AuthMode): Promise<void> {
    const key = knownUnknown ? null : await this.apiKeys.authenticate(token);
    if (!key) await this.keyGuesses.recordFailure(clientAddressKey(clientIp(context.req)));
    admit(context, this.callerOfKey(key, mode));
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

  private async authenticateDashboard(context: PolicyContext, mode: AuthMode): Promise<void> {
    const user = await this.dashboardJwt.authenticate(context.execution);
    if (mode === 'signed_in') return admit(context, { kind: 'signed_in', user });
    const account = await this.accounts.findBySubject(user.subject);
    if (!account) throw new ApiError('ACCOUNT_NOT_FOUND', 'This user has no account yet.');
    if (mode === 'dashboard_account') return admit(context, { kind: 'dashboard_account', user, accountId: account.id });
    const project = await this.projectOfAccount(context.req, account.id);
    admit(context, { kind: 'dashboard_project', user, accountId: account.id, project });
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
}

function admit(context: PolicyContext, caller: Caller): void {
  context.caller = caller;
  const project = projectOfCaller(caller);
  context.project = project;
  if (project) setRequestProject(context.req, project.id);
  if (caller.kind === 'secret_key') context.res.setHeader('Cache-Control', 'no-store');
}
