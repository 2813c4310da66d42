import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { passportJwtSecret } from 'jwks-rsa';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { ApiError } from '../common/errors/api-error';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

export interface JwtClaims {
  sub: string;
  email?: string;
}

const MAX_SUBJECT_LENGTH = 255;

type StrategyCallbacks = {
  success: (user: unknown) => void;
  fail: (info: unknown) => void;
  error: (error: unknown) => void;
};

/**
 * Verifies dashboard JWTs (RS256) against the identity provider's key set, with passport-jwt and
 * jwks-rsa (keys cached, fetches rate-limited). Any failure — signature, expiry, issuer, a missing
 * subject, or no identity provider configured — is INVALID_CLERK_TOKEN.
 */
@Injectable()
export class JwtVerifier {
  private readonly logger = new Logger(JwtVerifier.name);
  private readonly strategy: Strategy | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.strategy = config.jwt
      ? new Strategy(
          {
            jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
            secretOrKeyProvider: passportJwtSecret({
              jwksUri: config.jwt.jwksUrl,
              cache: true,
              cacheMaxAge: 10 * 60_000,
              rateLimit: true,
              jwksRequestsPerMinute: 10,
            }),
            algorithms: ['RS256'],
            issuer: config.jwt.issuer ?? undefined,
          },
          (payload: JwtClaims, done: (error: unknown, user?: unknown) => void) => done(null, payload),
        )
      : null;
  }

  verify(req: Request): Promise<JwtClaims> {
    const strategy = this.strategy;
    if (!strategy) {
      return Promise.reject(new ApiError('INVALID_CLERK_TOKEN', 'Dashboard sign-in is not configured on this server.'));
    }
    return new Promise((resolve, reject) => {
      // passport drives a strategy by giving a per-request copy these three callbacks.
      const attempt = Object.create(strategy) as Strategy & StrategyCallbacks;
      attempt.success = (user) => {
        const claims = user as JwtClaims;
        if (typeof claims.sub !== 'string' || claims.sub.length === 0 || claims.sub.length > MAX_SUBJECT_LENGTH) {
          reject(new ApiError('INVALID_CLERK_TOKEN', 'The token has no usable subject (1 to 255 characters).'));
          return;
        }
        // An email claim we cannot store is left out rather than failing the sign-in.
        const email =
          typeof claims.email === 'string' && claims.email.length <= 254 && claims.email.includes('@') ? claims.email : undefined;
        resolve({ sub: claims.sub, email });
      };
      attempt.fail = (info) => reject(this.toApiError(info));
      attempt.error = (error) => reject(this.toApiError(error));
      attempt.authenticate(req, {});
    });
  }

  private toApiError(info: unknown): ApiError {
    const reason = info instanceof Error ? info.message : String(info ?? 'unknown reason');
    if (info instanceof Error && /jwks|signing key|ECONN|fetch/i.test(info.name + info.message)) {
      this.logger.warn(`JWT key set problem: ${reason}`);
    }
    return new ApiError('INVALID_CLERK_TOKEN', `The sign-in token was refused: ${reason}.`);
  }
}
