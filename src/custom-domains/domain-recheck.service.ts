import { Inject, Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { Clock } from '../common/clock/clock';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../infra/database/database.service';
import { CustomDomainHosts } from './custom-domain-hosts.service';
import { claimDueRechecks, recordRecheck, releaseDomain } from './custom-domains.queries';
import { DnsResolver } from './dns-resolver';
import { RECHECK_INTERVAL_MS, RETRY_INTERVAL_MS, servingEndsAt } from './domain-claims';
import { checkProof } from './domain-proof';
import type { CustomDomainEntity } from './entities/custom-domain.entity';

/** Hostnames taken per statement. */
const BATCH = 50;
// Longer than a batch of lookups can take (3 s × 2 tries each): a hostname is taken by one process
// at a time; one whose process died is due again when this ends.
const LEASE_MS = 10 * 60 * 1000;

/** What came of one re-check. */
type RecheckOutcome = 'verified' | 'failing' | 'released' | 'lookup_failed';

type RecheckSummary = Record<RecheckOutcome, number>;

type CheckedDomain = Pick<CustomDomainEntity, 'id' | 'projectId' | 'hostname' | 'verificationToken' | 'failingSince'>;

/**
 * The re-check of verified hostnames (choices in custom-domains.service.ts). Each verified row
 * carries `next_check_at` (24 h after a good check, 1 h while failing or after a failed lookup).
 * Every process that runs workers ticks hourly at :45; each tick takes the due rows with
 * `FOR UPDATE SKIP LOCKED` and a lease (claimDueRechecks), so however many workers tick, each
 * hostname is looked up by one of them, once; a late or missed tick only delays the check.
 */
@Injectable()
export class DomainRecheck {
  private readonly logger = new Logger(DomainRecheck.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly dns: DnsResolver,
    private readonly hosts: CustomDomainHosts,
  ) {}

  @Cron('45 * * * *', { name: 'custom-domain-recheck', timeZone: 'UTC' })
  async runHourly(): Promise<void> {
    if (!this.config.workers || this.config.customDomains === null) return;
    try {
      const summary = await this.recheckDue();
      if (summary.failing + summary.released + summary.lookup_failed > 0) {
        this.logger.log(
          `Custom domain re-check: ${summary.failing} failing, ${summary.released} stopped serving, ${summary.lookup_failed} lookups failed`,
        );
      }
    } catch (error) {
      this.logger.warn(`Custom domain re-check failed: ${(error as Error).message}`);
    }
  }

  /** Re-checks every verified hostname that is due now; answers what came of it. */
  async recheckDue(): Promise<RecheckSummary> {
    const summary: RecheckSummary = { verified: 0, failing: 0, released: 0, lookup_failed: 0 };
    for (;;) {
      const now = this.clock.now();
      const due = await claimDueRechecks(this.db.manager, now, new Date(now.getTime() + LEASE_MS), BATCH);
      if (due.length === 0) return summary;
      for (const domain of due) summary[await this.recheck(domain)] += 1;
    }
  }

  /** One look at a verified hostname's TXT record, and what follows from it. */
  async recheck(domain: CheckedDomain): Promise<RecheckOutcome> {
    const proof = await checkProof(this.dns, domain);
    const now = this.clock.now();
    const after = (ms: number) => new Date(now.getTime() + ms);
    const em = this.db.manager;
    if (proof.outcome === 'lookup_failed') {
      // Nothing is known: the status stays, and last_checked_at stays the last check that answered.
      this.logger.warn(`DNS re-check of ${domain.hostname} failed: ${proof.code}`);
      await recordRecheck(em, domain, { lastCheckError: proof.error, nextCheckAt: after(RETRY_INTERVAL_MS) });
      return 'lookup_failed';
    }
    if (proof.outcome === 'found') {
      await recordRecheck(em, domain, {
        lastCheckedAt: now,
        lastCheckError: null,
        failingSince: null,
        nextCheckAt: after(RECHECK_INTERVAL_MS),
      });
      return 'verified';
    }
    const failingSince = domain.failingSince ?? now;
    if (servingEndsAt(failingSince).getTime() > now.getTime()) {
      await recordRecheck(em, domain, {
        lastCheckedAt: now,
        lastCheckError: proof.error,
        failingSince,
        nextCheckAt: after(RETRY_INTERVAL_MS),
      });
      return 'failing';
    }
    const error = `${proof.error} It was missing from ${failingSince.toISOString()} for 7 days, so ${domain.hostname} stopped serving; publish it and verify again.`;
    await releaseDomain(em, domain, { at: now, error });
    await this.hosts.changed(domain.hostname);
    this.logger.log(`Custom domain ${domain.hostname} stopped serving: its TXT record was missing for 7 days`);
    return 'released';
  }
}
