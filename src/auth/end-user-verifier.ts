import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { USER_HASH_HEADER, type RoutePolicy } from '../common/http/route-policy';
import type { ProjectRef } from '../projects/project-ref';
import { Caller, EndUser } from './caller';
import { matchesUserHash } from './user-hash';

/** A project's notification signing secrets: the current one and, after a rotation, the old one until its grace ends. */
export interface SigningSecretSet {
  readonly current: string | null;
  readonly previous: { readonly secret: string; readonly validUntil: Date } | null;
}

/** Where the secrets come from: the notifications module, which owns them, registers its reader. */
export type SigningSecretReader = (projectId: string) => Promise<SigningSecretSet>;

const NO_SECRETS: SigningSecretSet = { current: null, previous: null };
const MAX_USER_ID_LENGTH = 256;

interface EndUserClaim {
  userId: string | null;
  hash: string | null;
}

/** A query or JSON body field that must be a string when present. */
function stringField(source: unknown, name: string): string | null {
  if (!source || typeof source !== 'object') return null;
  const value = (source as Record<string, unknown>)[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new ApiError('VALIDATION_ERROR', `${name} must be a string.`, { param: name });
  return value;
}

/** `user_id` from the query or the JSON body; `user_hash` from the header, the query or the body. */
export function readEndUserClaim(req: Request): EndUserClaim {
  const userId = stringField(req.query, 'user_id') ?? stringField(req.body, 'user_id');
  const header = req.headers[USER_HASH_HEADER.toLowerCase()];
  const hash = (typeof header === 'string' ? header : null) ?? stringField(req.query, 'user_hash') ?? stringField(req.body, 'user_hash');
  if (userId !== null && ([...userId].length > MAX_USER_ID_LENGTH || userId.length === 0)) {
    throw new ApiError('VALIDATION_ERROR', `user_id must be 1 to ${MAX_USER_ID_LENGTH} characters.`, { param: 'user_id' });
  }
  return { userId, hash };
}

/**
 * The end-user mode of the route policy (spec: Notification identity verification): a browser names
 * its user with `user_id` and proves it with `user_hash`, checked in constant time against the
 * project's signing secret, or the previous one within its grace period. Refusals are 403
 * USER_HASH_INVALID; a `user_id` with a bad hash is never treated as anonymous.
 */
@Injectable()
export class EndUserVerifier {
  private readSecrets: SigningSecretReader = () => Promise.resolve(NO_SECRETS);

  constructor(private readonly clock: Clock) {}

  /** Called once by the module that owns the signing secrets. */
  useSigningSecrets(reader: SigningSecretReader): void {
    this.readSecrets = reader;
  }

  async resolve(req: Request, rule: NonNullable<RoutePolicy['endUser']>, caller: Caller, project: ProjectRef): Promise<EndUser | null> {
    const { userId, hash } = readEndUserClaim(req);
    if (userId === null) {
      if (rule.optional && hash === null) return null;
      throw new ApiError('VALIDATION_ERROR', 'user_id is required: the id of the signed-in person this call is for.', { param: 'user_id' });
    }
    // A secret key is the product's own server: it may speak for any user.
    if (caller.kind === 'secret_key') return { userId, verified: true };
    if (hash === null) {
      if (rule.userHash === 'unless_legacy' && !project.settings.require_user_hash) return { userId, verified: false };
      throw new ApiError('USER_HASH_INVALID', 'user_hash is required with user_id.', { param: 'user_hash' });
    }
    const secrets = await this.validSecrets(project.id);
    if (secrets.length === 0) {
      throw new ApiError('USER_HASH_INVALID', 'This project has no notification signing secret yet.', {
        param: 'user_hash',
        remediation: 'Create one with POST /v1/notifications/signing-secret (secret key), then compute user_hash on your server.',
      });
    }
    if (!matchesUserHash(userId, hash, secrets)) {
      throw new ApiError('USER_HASH_INVALID', 'user_hash does not match user_id.', { param: 'user_hash' });
    }
    return { userId, verified: true };
  }

  private async validSecrets(projectId: string): Promise<string[]> {
    const { current, previous } = await this.readSecrets(projectId);
    const secrets = current ? [current] : [];
    if (previous && previous.validUntil.getTime() > this.clock.now().getTime()) secrets.push(previous.secret);
    return secrets;
  }
}
