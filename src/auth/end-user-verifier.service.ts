import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock';

/** A project's notification signing secrets: the current one and, after a rotation, the old one until its grace ends. */
export interface SigningSecretSet {
  readonly current: string | null;
  readonly previous: { readonly secret: string; readonly validUntil: Date } | null;
}

/** Where the secrets come from: the notifications module, which owns them, registers its reader. */
type SigningSecretReader = (projectId: string) => Promise<SigningSecretSet>;

const NO_SECRETS: SigningSecretSet = { current: null, previous: null };

/**
 * The secrets a `user_hash` may be computed with (spec: Notification identity verification): the
 * project's signing secret, and the previous one within its grace period. The user-hash step of
 * the route-policy guard (policy-steps/user-hash.step.ts) checks hashes against them.
 */
@Injectable()
export class EndUserVerifier {
  private readSecrets: SigningSecretReader = () => Promise.resolve(NO_SECRETS);

  constructor(private readonly clock: Clock) {}

  /** Called once by the module that owns the signing secrets. */
  useSigningSecrets(reader: SigningSecretReader): void {
    this.readSecrets = reader;
  }

  /** The secrets valid now, the current one first; none before the project created one. */
  async validSecrets(projectId: string): Promise<string[]> {
    const { current, previous } = await this.readSecrets(projectId);
    const secrets = current ? [current] : [];
    if (previous && previous.validUntil.getTime() > this.clock.now().getTime()) secrets.push(previous.secret);
    return secrets;
  }
}
