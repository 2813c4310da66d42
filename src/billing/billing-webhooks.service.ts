import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { idPattern } from '../common/ids/ids';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../infra/database/database.service';
import { lockProject } from '../projects/project-lock';
import { ProjectsService } from '../projects/projects.service';
import { type BillingUpdate, type ProviderEvent, billingUpdateOf, isHandledEventType } from './billing-events';
import { BillingProvider } from './billing-provider.client';
import { claimBillingEvent, findBillingAccount, projectOfCustomer, recordEventOutcome, saveBillingAccount } from './billing.queries';
import type { BillingWebhookResultDto } from './dto/billing.dto';
import { BillingAccountEntity } from './entities/billing-account.entity';
import type { BillingEventOutcome } from './entities/billing-event.entity';

interface Applied {
  outcome: BillingEventOutcome;
  projectId: string | null;
}

/**
 * The provider's signed webhook: checkout completion, subscription change and cancellation set
 * the project's plan.
 *
 * - Idempotent: each event id is claimed in billing_events in the transaction that applies it; a
 *   redelivery answers `duplicate` and changes nothing. A failure rolls the claim back, so the
 *   provider's retry applies it.
 * - Order: the provider does not deliver in order. The project's row lock serialises events of one
 *   project; an event older (by its `created` time) than the last one applied is recorded as `stale`
 *   and changes nothing. Events of the same second apply in arrival order.
 * - A `deleted` event of a subscription other than the project's current one changes nothing (an
 *   old subscription ending after a new one began).
 * - The project comes from our metadata (client_reference_id / metadata.project_id, set at
 *   checkout), else from the customer id; an event for no known project is `ignored`, with 200, so
 *   the provider stops retrying.
 */
@Injectable()
export class BillingWebhooksService {
  private readonly logger = new Logger(BillingWebhooksService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly provider: BillingProvider,
    private readonly projects: ProjectsService,
  ) {}

  async handleWebhook(rawBody: Buffer | undefined, signature: string | undefined): Promise<BillingWebhookResultDto> {
    const event = this.provider.verifyEvent(rawBody, signature);
    if (!isHandledEventType(event.type)) return { received: true, outcome: 'ignored' };
    const prices = this.config.billing?.prices;
    const update = prices ? billingUpdateOf(event, prices) : null;
    const result = await this.db.transaction(async (em): Promise<Applied | null> => {
      const claimed = await claimBillingEvent(em, {
        id: event.id,
        type: event.type,
        projectId: null,
        occurredAt: new Date(event.created * 1000),
        outcome: 'ignored',
        receivedAt: this.clock.now(),
      });
      if (!claimed) return null;
      const applied = update ? await this.apply(em, event, update) : { outcome: 'ignored' as const, projectId: null };
      await recordEventOutcome(em, event.id, applied.projectId, applied.outcome);
      return applied;
    });
    if (!result) return { received: true, outcome: 'duplicate' };
    this.logger.log(`billing event ${event.type} ${event.id}: ${result.outcome}`);
    return { received: true, outcome: result.outcome };
  }

  private async apply(em: EntityManager, event: ProviderEvent, update: BillingUpdate): Promise<Applied> {
    const projectId = await this.projectOf(em, update);
    const ignored = { outcome: 'ignored' as const, projectId };
    if (!projectId) return ignored;
    await lockProject(em, projectId);
    const project = await this.projects.liveLinkOf(em, projectId);
    if (!project || project.liveProjectId) return { ...ignored, projectId: null };
    const occurredAt = new Date(event.created * 1000);
    const account = await findBillingAccount(em, projectId);
    if (account && account.lastEventAt > occurredAt) return { outcome: 'stale', projectId };
    const otherSubscription =
      account?.subscriptionId && update.subscriptionId && account.subscriptionId !== update.subscriptionId && update.plan === 'free';
    if (otherSubscription) return ignored;
    const customerId = update.customerId ?? account?.customerId;
    if (!customerId) return ignored;
    const now = this.clock.now();
    await saveBillingAccount(
      em,
      Object.assign(new BillingAccountEntity(), {
        projectId,
        customerId,
        subscriptionId: update.subscriptionId ?? account?.subscriptionId ?? null,
        subscriptionStatus: update.subscriptionStatus ?? account?.subscriptionStatus ?? null,
        lastEventAt: occurredAt,
        createdAt: account?.createdAt ?? now,
        updatedAt: now,
      }),
    );
    // Announced with the commit: every process's key cache drops the project's keys.
    if (update.plan) await this.projects.setPlanIn(em, projectId, update.plan);
    return { outcome: 'applied', projectId };
  }

  private async projectOf(em: EntityManager, update: BillingUpdate): Promise<string | null> {
    // Metadata is ours, but the check costs nothing and keeps odd values out of the id column.
    if (update.projectId) return idPattern('prj').test(update.projectId) ? update.projectId : null;
    return update.customerId ? projectOfCustomer(em, update.customerId) : null;
  }
}
