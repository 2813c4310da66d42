import { ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { AuthGuard, type IAuthGuard, PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import jwt from 'jsonwebtoken';
import { passportJwtSecret } from 'jwks-rsa';
import passport from 'passport';
import { ExtractJwt, Strategy, type StrategyOptionsWithoutRequest } from 'passport-jwt';
import { ApiError } from '../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { DashboardUser } from './caller';

const MAX_SUBJECT_LENGTH = 255;
const MAX_EMAIL_LENGTH = 254;
// Control characters (NUL above all) cannot be stored or compared safely.
const CONTROL_CHARACTERS = /\p{Cc}/u;

let strategies = 0;

type KeyProvider = (req: Request, token: string, done: (error: unknown, key?: string | Buffer) => void) => void;

const refusal = (message: string) => new ApiError('INVALID_CLERK_TOKEN', message, { param: 'Authorization' });

const notConfigured: KeyProvider = (_req, _token, done) => done(refusal('Dashboard sign-in is not configured on this server.'));

/** Tells a malformed token and a foreign algorithm apart before the key lookup, which answers both with "no key". */
function checkedFirst(lookUpKey: KeyProvider): KeyProvider {
  return (req, token, done) => {
    const decoded = jwt.decode(token, { complete: true });
    if (!decoded || typeof decoded.payload !== 'object') return done(refusal('The sign-in token is malformed.'));
    if (decoded.header.alg !== 'RS256') return done(refusal('The sign-in token is not signed with RS256.'));
    lookUpKey(req, token, done);
  };
}

function strategyOptions(config: AppConfig): StrategyOptionsWithoutRequest {
  return {
    jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
    secretOrKeyProvider: config.jwt
      ? checkedFirst(
          passportJwtSecret({
            jwksUri: config.jwt.jwksUrl,
            cache: true,
            cacheMaxAge: 10 * 60_000,
            rateLimit: true,
            jwksRequestsPerMinute: 10,
          }),
        )
      : notConfigured,
    algorithms: ['RS256'],
    issuer: config.jwt?.issuer ?? undefined,
  };
}

/**
 * Dashboard JWTs (RS256) through passport-jwt, keys from the identity provider's key set through
 * jwks-rsa (cached; fetches rate-limited). Each application registers its strategy under a name of
 * its own, so several applications in one process (the e2e suites) never share a configuration.
 */
@Injectable()
export class DashboardJwtStrategy extends PassportStrategy(Strategy) {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(strategyOptions(config));
    strategies += 1;
    this.name = `dashboard-jwt-${strategies}`;
    passport.use(this.name, this);
  }

  /** The claims we use, checked: a subject we can store and an email we can use (else left out). */
  validate(payload: { sub?: unknown; email?: unknown }): DashboardUser {
    const { sub, email } = payload;
    if (typeof sub !== 'string' || sub.length === 0 || sub.length > MAX_SUBJECT_LENGTH || CONTROL_CHARACTERS.test(sub)) {
      throw new ApiError('INVALID_CLERK_TOKEN', 'The sign-in token has no usable subject (1 to 255 printable characters).');
    }
    const usableEmail =
      typeof email === 'string' && email.length <= MAX_EMAIL_LENGTH && email.includes('@') && !CONTROL_CHARACTERS.test(email)
        ? email
        : null;
    return { subject: sub, email: usableEmail };
  }
}

/** Our words for passport-jwt's and jwks-rsa's refusals: library messages are never echoed. */
function refusalOf(info: unknown, logger: Logger): ApiError {
  if (info instanceof ApiError) return info;
  const name = info instanceof Error ? info.name : '';
  const message = info instanceof Error ? info.message : '';
  let reason = 'The sign-in token could not be verified.';
  if (name === 'TokenExpiredError') reason = 'The sign-in token has expired.';
  else if (name === 'NotBeforeError') reason = 'The sign-in token is not valid yet.';
  else if (name === 'SigningKeyNotFoundError')
    reason = "The sign-in token was signed with a key the identity provider's key set does not have.";
  else if (/issuer/.test(message)) reason = 'The sign-in token comes from another issuer.';
  else if (/signature/.test(message)) reason = 'The sign-in token has a bad signature.';
  else if (/algorithm/.test(message)) reason = 'The sign-in token is not signed with RS256.';
  else if (/jwks|ECONN|ETIMEDOUT|socket|network/i.test(`${name} ${message}`)) {
    logger.warn(`Identity provider key set unavailable: ${name}`);
    reason = "The identity provider's key set could not be fetched.";
  }
  return refusal(reason);
}

/** Runs the strategy through @nestjs/passport's AuthGuard; answers the dashboard user or throws INVALID_CLERK_TOKEN. */
@Injectable()
export class DashboardJwt {
  private readonly logger = new Logger(DashboardJwt.name);
  private readonly guard: IAuthGuard;

  constructor(strategy: DashboardJwtStrategy) {
    const logger = this.logger;
    class PassportGuard extends AuthGuard(strategy.name) {
      override handleRequest<T>(error: unknown, user: unknown, info: unknown): T {
        if (error) throw refusalOf(error, logger);
        if (!user) throw refusalOf(info, logger);
        return user as T;
      }
    }
    this.guard = new PassportGuard();
  }

  async authenticate(context: ExecutionContext): Promise<DashboardUser> {
    await this.guard.canActivate(context);
    return (context.switchToHttp().getRequest<Request>() as Request & { user: DashboardUser }).user;
  }
}
