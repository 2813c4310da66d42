import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { Clock } from '../../common/clock/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../../infra/database/database.service';
import { ErasureRegistry } from '../../infra/erasure/erasure-registry.service';
import { clearResponsesNamingPerson } from './deliveries.queries';
import { deleteExpiredBatch, endpointIdsAfter } from './deliveries.queries';

/** Spec: Limits → Webhooks — the delivery log is kept 30 days. */
export const DELIVERY_LOG_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** Rows per DELETE statement, so no statement holds locks for long. */
const DELIVERY_ROW_BATCH = 5_000;
const ENDPOINT_PAGE = 500;

/**
 * Retention of the delivery log (issue 11 item 7): deliveries created more than 30 days ago are
 * deleted daily at 03:30 UTC by worker processes, endpoint by endpoint so each short DELETE is a
 * range of ix_webhook_deliveries_endpoint (endpoint_id, created_at). A pending delivery that old
 * cannot exist (the whole retry schedule spans hours), so nothing still due is lost. A delivery's
 * attempts go with it (fk_webhook_delivery_attempts_delivery ON DELETE CASCADE). Events rows
 * are not touched here. A crash mid-way leaves only work for the next run.
 */
@Injectable()
export class DeliveryRetention implements OnModuleInit {
  private readonly logger = new Logger(DeliveryRetention.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly erasure: ErasureRegistry,
  ) {}

  /** A receiver's answer may quote the person: erasing them clears that excerpt from the log. */
  onModuleInit(): void {
    this.erasure.contribute('webhook_responses', clearResponsesNamingPerson);
  }

  @Cron('30 3 * * *', { name: 'webhook-delivery-retention', timeZone: 'UTC' })
  async runDaily(): Promise<void> {
    if (!this.config.workers) return;
    try {
      const deleted = await this.purgeExpired();
      if (deleted > 0) this.logger.log(`Retention deleted ${deleted} webhook deliveries`);
    } catch (error) {
      this.logger.warn(`Webhook delivery retention failed: ${(error as Error).message}`);
    }
  }

  /** One full pass; answers how many deliveries were deleted. */
  async purgeExpired(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - DELIVERY_LOG_RETENTION_MS);
    const em = this.db.manager;
    let deleted = 0;
    let after = '';
    for (;;) {
      const endpointIds = await endpointIdsAfter(em, after, ENDPOINT_PAGE);
      if (endpointIds.length === 0) return deleted;
      for (const endpointId of endpointIds) {
        for (;;) {
          const count = await deleteExpiredBatch(em, endpointId, cutoff, DELIVERY_ROW_BATCH);
          deleted += count;
          if (count < DELIVERY_ROW_BATCH) break;
        }
      }
      after = endpointIds[endpointIds.length - 1];
    }
  }
}
