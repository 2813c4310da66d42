import { DnsResolver } from '../../src/custom-domains/dns-resolver';

/** DNS answers the tests decide: TXT records by name. */
export class FakeDns extends DnsResolver {
  txt = new Map<string, string[][]>();
  asked: string[] = [];
  failing = false;
  /** When set, answers are held until this many lookups wait: racing checks then all pass their first reads. */
  holdFor = 0;
  private held: (() => void)[] = [];
  async resolveTxt(name: string): Promise<string[][]> {
    this.asked.push(name);
    if (this.holdFor > 0) await this.hold();
    return this.failing
      ? Promise.reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' }))
      : Promise.resolve(this.txt.get(name) ?? []);
  }
  private hold(): Promise<void> {
    return new Promise((resolve) => {
      this.held.push(resolve);
      if (this.held.length < this.holdFor) return;
      this.holdFor = 0;
      for (const release of this.held.splice(0)) release();
    });
  }
}
