import type { Caller } from '../../auth/caller';
import type { ErasureActor } from './erasure.service';

/** The audit's "who": the API key's id, or the dashboard account's id. */
export function erasureActorOf(caller: Caller): ErasureActor {
  if (caller.kind === 'secret_key' || caller.kind === 'publishable_key') return { kind: 'api_key', id: caller.keyId };
  if (caller.kind === 'dashboard_project' || caller.kind === 'dashboard_account') return { kind: 'account', id: caller.accountId };
  throw new Error(`An erasure needs a key or an account (caller ${caller.kind})`);
}
