import { ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { AuthGuard, type IAuthGuard, PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import jwt from 'jsonwebtoken';
import passport from 'passport';
import { ExtractJwt, Strategy, type StrategyOptionsWithoutRequest } from 'passport-jwt';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { emailProblem, normalizeEmail } from '../common/validation/email-field';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { DashboardUser } from './caller';
import { SigningKeys } from './signing-keys';

const MAX_SUBJECT_LENGTH = 255;
/** How far ahead of our clock the identity provider's clock may run (iat and nbf). */
const CLOCK_SKEW_SECONDS = 60;
// Control characters (NUL above all) cannot be stored or compared safely.
const CONTROL_CHARACTERS = /\p{Cc}/u;

let strategies = 0;

type KeyProvider = (req: Request, token: string, done: (error: unknown, key?: string | Buffer) => void) => void;

const refusal = (message: string) => new ApiError('INVALID_CLERK_TOKEN', message, { param: 'Authorization' });

const notConfigured: KeyProvider = (_req, _token, done) => done(refusal('Dashboard sign-in is not configured on this server.'));

/**
 * Checks what can be checked without a key first (a malformed token, a foreign algorithm, a kid
 * that is not a short string), then asks the key set for the token's key. A key-server outage is
 * 503 SERVICE_UNAVAILABLE (passed through as it is), not a refusal of the token.
 */
function keyFromSet(keys: SigningKeys): KeyProvider {
  return (_req, token, done) => {
    const decoded = jwt.decode(token, { complete: true });
    if (!decoded || typeof decoded.payload !== 'object') return done(refusal('The sign-in token is malformed.'));
    if (decoded.header.alg !== 'RS256') return done(refusal('The sign-in token is not signed with RS256.'));
    const kid: unknown = decoded.header.kid;
    if (kid !== undefined && (typeof kid !== 'string' || kid.length > 256))
      return done(refusal('The sign-in token has a malformed key id.'));
    keys.publicKey(kid).then(
      (key) => done(null, key),
      (error: unknown) => done(error),
    );
  };
}

function strategyOptions(config: AppConfig, clock: Clock): StrategyOptionsWithoutRequest {
  return {
    jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
    secretOrKeyProvider: config.jwt ? keyFromSet(new SigningKeys(config.jwt.jwksUrl, clock)) : notConfigured,
    algorithms: ['RS256'],
    // nbf is judged in validate(), with iat, on the injected clock and the same skew.
    jsonWebTokenOptions: { ignoreNotBefore: true },
    issuer: config.jwt?.issuer ?? undefined,
    // CONTRACT.md: when JWT_AUDIENCE is set, dashboard JWTs must carry it.
    audience: config.jwt?.audience ?? undefined,
  };
}

/**
 * Dashboard JWTs (RS256) through passport-jwt, keys from the identity provider's key set through
 * jwks-rsa (cached; fetches rate-limited). Each application registers its strategy under a name of
 * its own, so several applications in one process (the e2e suites) never share a configuration.
 */
@Injectable()
export class DashboardJwtStrategy extends PassportStrategy(Strategy) {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clock: Clock,
  ) {
    super(strategyOptions(config, clock));
    strategies += 1;
    this.name = `dashboard-jwt-${strategies}`;
    passport.use(this.name, this);
  }

  /**
   * The claims we use, checked after the signature: an expiry (a token without one would never
   * expire), times that have come (see timeClaimProblem), a subject we can store, and no control
   * characters anywhere we read; an email that is not a storable address (after the same
   * normalisation request emails get) is left out.
   */
  validate(payload: DashboardClaims): DashboardUser {
    const { sub, email, exp } = payload;
    if (typeof exp !== 'number' || !Number.isFinite(exp)) throw refusal('The sign-in token has no expiry (exp).');
    const timeProblem = timeClaimProblem(payload, this.clock.now().getTime() / 1000);
    if (timeProblem) throw refusal(timeProblem);
    if (typeof sub !== 'string' || sub.length === 0 || sub.length > MAX_SUBJECT_LENGTH || CONTROL_CHARACTERS.test(sub)) {
      throw refusal('The sign-in token has no usable subject (1 to 255 printable characters).');
    }
    if (typeof email === 'string' && CONTROL_CHARACTERS.test(email))
      throw refusal('The sign-in token has control characters in its email.');
    const normalized = typeof email === 'string' ? normalizeEmail(email) : null;
    return { subject: sub, email: normalized !== null && emailProblem(normalized) === null ? normalized : null };
  }
}

interface DashboardClaims {
  sub?: unknown;
  email?: unknown;
  exp?: unknown;
  iat?: unknown;
  nbf?: unknown;
}

/**
 * A token issued (iat) or valid from (nbf) more than a minute ahead of our clock is refused: beyond
 * ordinary clock skew it comes from a broken issuer clock or was minted ahead of time to be used
 * later, and nothing it says about time can be trusted (jsonwebtoken itself never looks at a
 * future iat). Both claims are optional; when present they must be numbers.
 */
export function timeClaimProblem(claims: Pick<DashboardClaims, 'iat' | 'nbf'>, nowSeconds: number): string | null {
  const latest = nowSeconds + CLOCK_SKEW_SECONDS;
  const { iat, nbf } = claims;
  if (iat !== undefined && (typeof iat !== 'number' || !Number.isFinite(iat))) return 'The sign-in token has a malformed issue time (iat).';
  if (nbf !== undefined && (typeof nbf !== 'number' || !Number.isFinite(nbf))) return 'The sign-in token has a malformed start time (nbf).';
  if (typeof iat === 'number' && iat > latest) return 'The sign-in token was issued more than a minute in the future (iat).';
  if (typeof nbf === 'number' && nbf > latest) return 'The sign-in token is not valid yet.';
  return null;
}

/** Our words for passport-jwt's and jwks-rsa's refusals: library messages are never echoed. */
function refusalOf(info: unknown, logger: Logger): ApiError {
  if (info instanceof ApiError) return info;
  const name = info instanceof Error ? info.name : '';
  const message = info instanceof Error ? info.message : '';
  let reason = 'The sign-in token could not be verified.';
  if (name === 'TokenExpiredError') reason = 'The sign-in token has expired.';
  else if (name === 'SigningKeyNotFoundError')
    reason = "The sign-in token was signed with a key the identity provider's key set does not have.";
  else if (/audience/.test(message)) reason = 'The sign-in token is meant for another audience.';
  else if (/issuer/.test(message)) reason = 'The sign-in token comes from another issuer.';
  else if (/signature/.test(message)) reason = 'The sign-in token has a bad signature.';
  else if (/algorithm/.test(message)) reason = 'The sign-in token is not signed with RS256.';
  else if (info instanceof Error) logger.debug(`Dashboard token refused: ${name}`);
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
