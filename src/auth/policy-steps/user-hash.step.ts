import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '../../common/errors/api-error';
import { USER_HASH_HEADER } from '../../common/http/route-policy';
import { EndUserVerifier } from '../end-user-verifier.service';
import { UserHashChecks } from '../user-hash';
import type { PolicyContext, PolicyStep } from './policy-step';

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
function readEndUserClaim(req: Request): EndUserClaim {
  const userId = stringField(req.query, 'user_id') ?? stringField(req.body, 'user_id');
  const header = req.headers[USER_HASH_HEADER.toLowerCase()];
  const hash = (typeof header === 'string' ? header : null) ?? stringField(req.query, 'user_hash') ?? stringField(req.body, 'user_hash');
  if (userId !== null && ([...userId].length > MAX_USER_ID_LENGTH || userId.length === 0)) {
    throw new ApiError('VALIDATION_ERROR', `user_id must be 1 to ${MAX_USER_ID_LENGTH} characters.`, { param: 'user_id' });
  }
  return { userId, hash };
}

/**
 * The end user of routes whose policy names one (spec: Notification identity verification): a
 * browser names its user with `user_id` and proves it with `user_hash`, checked in constant time
 * against the project's signing secret, or the previous one within its grace period. Refusals are
 * 403 USER_HASH_INVALID; a `user_id` with a bad hash is never treated as anonymous. A secret key
 * is the product's own server and may speak for any user. Only a hash to check waits (for the
 * secrets); every other outcome is decided without an await.
 */
@Injectable()
export class UserHashStep implements PolicyStep {
  private readonly checks = new UserHashChecks();

  constructor(private readonly secrets: EndUserVerifier) {}

  run(context: PolicyContext): Promise<void> | void {
    const rule = context.policy.endUser;
    const project = context.project;
    if (!rule || !project) return;
    const { userId, hash } = readEndUserClaim(context.req);
    if (userId === null) {
      if (rule.optional && hash === null) return;
      throw new ApiError('VALIDATION_ERROR', 'user_id is required: the id of the signed-in person this call is for.', { param: 'user_id' });
    }
    if (context.caller.kind === 'secret_key') {
      context.endUser = { userId, verified: true };
      return;
    }
    if (hash === null) {
      if (rule.userHash === 'unless_legacy' && !project.settings.require_user_hash) {
        context.endUser = { userId, verified: false };
        return;
      }
      throw new ApiError('USER_HASH_INVALID', 'user_hash is required with user_id.', { param: 'user_hash' });
    }
    return this.verify(context, project.id, userId, hash);
  }

  private async verify(context: PolicyContext, projectId: string, userId: string, hash: string): Promise<void> {
    const secrets = await this.secrets.validSecrets(projectId);
    if (secrets.length === 0) {
      throw new ApiError('USER_HASH_INVALID', 'This project has no notification signing secret yet.', {
        param: 'user_hash',
        remediation: 'Create one with POST /v1/notifications/signing-secret (secret key), then compute user_hash on your server.',
      });
    }
    if (!this.checks.matches(userId, hash, secrets)) {
      throw new ApiError('USER_HASH_INVALID', 'user_hash does not match user_id.', { param: 'user_hash' });
    }
    context.endUser = { userId, verified: true };
  }
}
