import { Resolver } from 'node:dns/promises';

/**
 * The DNS lookup a domain check needs: a port, so tests answer it without a DNS server. It answers
 * an empty list when the name has no such record (NXDOMAIN, NODATA).
 */
export abstract class DnsResolver {
  /** TXT records, each as its character strings. */
  abstract resolveTxt(name: string): Promise<string[][]>;
}

const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

/** The system's resolvers, with a bounded wait: 3 s per try, two tries. */
export class SystemDnsResolver extends DnsResolver {
  private readonly resolver = new Resolver({ timeout: 3_000, tries: 2 });

  resolveTxt(name: string): Promise<string[][]> {
    return this.orNone(this.resolver.resolveTxt(name));
  }

  private async orNone<T>(lookup: Promise<T[]>): Promise<T[]> {
    try {
      return await lookup;
    } catch (error) {
      if (ABSENT.has((error as { code?: string }).code ?? '')) return [];
      throw error;
    }
  }
}
