import type { DnsResolver } from './dns-resolver';
import { verificationRecordName, verificationRecordValue } from './hostnames';

/** What a look at a hostname's TXT record found. */
type ProofCheck =
  | { outcome: 'found' }
  /** The lookup answered, without the record (or with other values): the proof is not there. */
  | { outcome: 'missing'; error: string }
  /** The lookup itself failed (timeout, SERVFAIL): nothing is known, nothing may change. */
  | { outcome: 'lookup_failed'; error: string; code: string };

/** Looks for the TXT record `_launch-service.<hostname>` with the claim's own token. */
export async function checkProof(dns: DnsResolver, domain: { hostname: string; verificationToken: string }): Promise<ProofCheck> {
  const txtName = verificationRecordName(domain.hostname);
  const expected = verificationRecordValue(domain.verificationToken);
  let txt: string[][];
  try {
    txt = await dns.resolveTxt(txtName);
  } catch (error) {
    const code = (error as { code?: string }).code;
    return {
      outcome: 'lookup_failed',
      code: code ?? (error as Error).message,
      error: `The DNS lookup of ${domain.hostname} failed (${code ?? 'error'}); retry in a few minutes.`,
    };
  }
  if (txt.some((chunks) => chunks.join('').trim() === expected)) return { outcome: 'found' };
  return { outcome: 'missing', error: `No TXT record ${txtName} with the value ${expected}.` };
}
