import { Inject, Injectable, Logger } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { Clock } from '../common/clock/clock';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../infra/database/database.service';
import { deleteLapsedClaims } from './custom-domains.queries';
import { lapsedBefore } from './domain-claims';

/**
 * Deletes lapsed claims (pending 7 days after they were added or released by the re-check) daily
 * at 04:15 UTC in processes that run workers. Housekeeping only: every query already ignores a lapsed claim from the moment
 * it lapses (custom-domains.service.ts), so a sweep that is late or fails changes no answer.
 */
@Injectable()
export class ClaimExpiry {
  private readonly logger = new Logger(ClaimExpiry.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  @Cron('15 4 * * *', { name: 'custom-domain-claim-expiry', timeZone: 'UTC' })
  async runDaily(): Promise<void> {
    if (!this.config.workers) return;
    try {
      const deleted = await this.purgeExpired();
      if (deleted > 0) this.logger.log(`Deleted ${deleted} lapsed custom domain claims`);
    } catch (error) {
      this.logger.warn(`Custom domain claim expiry failed: ${(error as Error).message}`);
    }
  }

  /** One pass; answers how many claims were deleted. */
  purgeExpired(): Promise<number> {
    return deleteLapsedClaims(this.db.manager, lapsedBefore(this.clock.now()));
  }
}
