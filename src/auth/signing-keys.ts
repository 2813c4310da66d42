import { Logger } from '@nestjs/common';
import { JwksClient, type SigningKey } from 'jwks-rsa';
import { ApiError } from '../common/errors/api-error';
import type { Clock } from '../common/clock/clock';

/** One fetch of the key set may take this long in all, connect to last byte; then the caller gets 503. */
const KEY_SET_FETCH_TIMEOUT_MS = 3_000;
/** Known keys are re-read this often; a failed re-read keeps the keys we have. */
const KEY_SET_MAX_AGE_MS = 10 * 60_000;
/** An unknown `kid` re-reads the key set at most this often, so made-up kids cost no fetch each. */
const UNKNOWN_KID_REFETCH_MS = 30_000;
/** After a failed fetch, callers that need the key server get 503 at once for this long. */
const FAILED_FETCH_BACKOFF_MS = 5_000;

const unavailable = () =>
  new ApiError('SERVICE_UNAVAILABLE', "The identity provider's key set could not be fetched to check the sign-in token.", {
    param: 'Authorization',
    remediation: 'Retry in a few seconds; the identity provider did not answer in time.',
    headers: { 'Retry-After': String(FAILED_FETCH_BACKOFF_MS / 1000) },
  });

const unknownKeyRefusal = () =>
  new ApiError('INVALID_CLERK_TOKEN', "The sign-in token was signed with a key the identity provider's key set does not have.", {
    param: 'Authorization',
  });

/**
 * The identity provider's signing keys, read as a whole set (jwks-rsa fetches, we cache). jwks-rsa's
 * own cache is per kid and its rate limit is a shared budget, so made-up kids would each cost a
 * fetch and then use up the budget that a real new key needs; here the set is re-read at most once
 * per UNKNOWN_KID_REFETCH_MS for unknown kids, known kids never wait, concurrent callers share one
 * fetch, and a key server that does not answer costs at most KEY_SET_FETCH_TIMEOUT_MS.
 */
export class SigningKeys {
  private readonly logger = new Logger(SigningKeys.name);
  private readonly client: JwksClient;
  private keys = new Map<string, string>();
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private failedAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<boolean> | null = null;

  constructor(
    jwksUri: string,
    private readonly clock: Clock,
  ) {
    this.client = new JwksClient({ jwksUri, cache: false, rateLimit: false, timeout: KEY_SET_FETCH_TIMEOUT_MS });
  }

  /** The PEM public key for `kid` (or the only key, when the token names none). */
  async publicKey(kid: string | undefined): Promise<string> {
    const now = this.clock.now().getTime();
    const known = this.lookUp(kid);
    if (known && now - this.fetchedAt < KEY_SET_MAX_AGE_MS) return known;
    // Stale keys, or an unknown kid whose last re-read is old enough: read the set again.
    if (known || now - this.fetchedAt >= UNKNOWN_KID_REFETCH_MS) {
      const refreshed = await this.refresh(now);
      const key = this.lookUp(kid);
      if (key) return key;
      if (!refreshed && !known) throw unavailable();
    }
    throw unknownKeyRefusal();
  }

  private lookUp(kid: string | undefined): string | undefined {
    if (kid !== undefined) return this.keys.get(kid);
    return this.keys.size === 1 ? [...this.keys.values()][0] : undefined;
  }

  /** True when the set was read (now or by a concurrent caller); false when the key server failed. */
  private async refresh(now: number): Promise<boolean> {
    if (now - this.failedAt < FAILED_FETCH_BACKOFF_MS) return false;
    this.inFlight ??= this.fetch().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  private async fetch(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('key set fetch timed out')), KEY_SET_FETCH_TIMEOUT_MS);
    });
    try {
      const keys: SigningKey[] = await Promise.race([this.client.getSigningKeys(), deadline]);
      this.keys = new Map(keys.map((key) => [key.kid, key.getPublicKey()]));
      this.fetchedAt = this.clock.now().getTime();
      return true;
    } catch (error) {
      this.failedAt = this.clock.now().getTime();
      // The library's text goes to the log only, never to the caller.
      this.logger.warn(`Identity provider key set unavailable: ${(error as Error).message ?? String(error)}`);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
