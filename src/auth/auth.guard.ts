import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from '../common/errors/api-error';
import { ANONYMOUS_CALLER, Caller, setCaller } from '../common/http/request-context';
import { ProjectRef } from '../projects/project-ref';
import { ProjectsService } from '../projects/projects.service';
import { AccountsService } from './accounts.service';
import { classifyBearer } from './api-key-format';
import { ApiKeysService } from './api-keys.service';
import { AUTH_POLICY, AuthMode, AuthPolicy } from './auth.decorator';
import { JwtVerifier } from './jwt-verifier';

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
 * The global guard. Every route declares its policy with @Auth; a route without one is refused
 * (and the route-inventory test fails), so nothing is public by accident.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly jwt: JwtVerifier,
    private readonly accounts: AccountsService,
    private readonly projects: ProjectsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const policy = this.reflector.get<AuthPolicy | undefined>(AUTH_POLICY, context.getHandler());
    if (!policy) throw new Error(`Route ${context.getClass().name}.${context.getHandler().name} has no @Auth policy`);
    const req = context.switchToHttp().getRequest<Request>();
    setCaller(req, await this.authenticate(req, policy.mode));
    return true;
  }

  private async authenticate(req: Request, mode: AuthMode): Promise<Caller> {
    if (mode === 'none') return ANONYMOUS_CALLER;
    const expectsJwt = JWT_MODES.has(mode);
    const token = bearerToken(req, expectsJwt);
    const kind = classifyBearer(token);
    if (expectsJwt && kind === 'api_key') {
      throw new ApiError('WRONG_AUTH_TYPE', 'Dashboard endpoints take a signed-in user token, not an API key.', { param: 'Authorization' });
    }
    if (!expectsJwt && kind === 'jwt') {
      throw new ApiError('WRONG_AUTH_TYPE', 'This endpoint takes an API key, not a dashboard token.', { param: 'Authorization' });
    }
    return expectsJwt ? this.authenticateJwt(req, mode) : this.authenticateKey(token, mode);
  }

  private async authenticateKey(token: string, mode: AuthMode): Promise<Caller> {
    const key = await this.apiKeys.authenticate(token);
    if (!key) throw new ApiError('INVALID_API_KEY', 'No such API key.', { param: 'Authorization' });
    if (key.revoked) throw new ApiError('REVOKED_API_KEY', 'This API key was revoked.', { param: 'Authorization' });
    if (mode === 'secret' && key.type !== 'secret') {
      throw new ApiError('KEY_INSUFFICIENT_PERMISSIONS', 'This endpoint needs a secret key.', { param: 'Authorization' });
    }
    return {
      kind: key.type === 'secret' ? 'secret_key' : 'publishable_key',
      project: key.project,
      credentialId: key.id,
      accountId: null,
      subject: null,
      email: null,
    };
  }

  private async authenticateJwt(req: Request, mode: AuthMode): Promise<Caller> {
    const claims = await this.jwt.verify(req);
    const caller: Caller = { ...ANONYMOUS_CALLER, kind: 'dashboard', subject: claims.sub, email: claims.email ?? null };
    if (mode === 'signed_in') return caller;
    const account = await this.accounts.findBySubject(claims.sub);
    if (!account) throw new ApiError('ACCOUNT_NOT_FOUND', 'This user has no account yet.');
    const withAccount: Caller = { ...caller, accountId: account.id, credentialId: account.id };
    if (mode === 'dashboard_account') return withAccount;
    return { ...withAccount, project: await this.projectOfAccount(req, account.id) };
  }

  private async projectOfAccount(req: Request, accountId: string): Promise<ProjectRef> {
    const projectId = req.headers[PROJECT_HEADER];
    if (typeof projectId !== 'string' || projectId.length === 0) {
      throw new ApiError('PROJECT_NOT_FOUND', 'Name the project in the X-Service-Project header.', { param: 'X-Service-Project' });
    }
    const project = await this.projects.findById(projectId);
    if (!project || project.accountId !== accountId) {
      throw new ApiError('PROJECT_NOT_FOUND', `Project ${projectId} is not one of this account's projects.`, {
        param: 'X-Service-Project',
      });
    }
    return project;
  }
}
