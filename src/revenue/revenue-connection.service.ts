import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { newId } from '../common/ids/ids';
import { ContactsService } from '../contacts/contacts.service';
import { Database } from '../infra/database/database.service';
import { isUniqueViolation } from '../infra/database/postgres-errors';
import { SealedValues } from '../infra/encryption/sealed-values.service';
import { planLimit } from '../projects/plans';
import type { ProjectRef } from '../projects/project-ref';
import { ConnectProcessorDto } from './dto/connect-processor.dto';
import { DisconnectedDto, ProcessorConnectionDto, SyncStartedDto } from './dto/processor-connection.dto';
import { RevenueConnectionEntity } from './entities/revenue-connection.entity';
import { ProcessorClients } from './processor.client';
import { ProcessorKeyBox } from './processor-key-box.service';
import { RevenueSyncs, syncStatusOf } from './revenue-syncs.service';
import {
  UQ_REVENUE_CONNECTIONS_PROJECT,
  accountHasOtherConnection,
  deleteProjectRevenue,
  findConnection,
  findPendingSync,
  lockAccountConnections,
  resealKeys,
  sampleSealedKey,
} from './revenue.queries';

const RESTRICTED_KEY = /^rk_(live|test)_[A-Za-z0-9]+$/;

/**
 * A project's read-only payment-processor connection (spec: Payment processor connections,
 * PROCESSOR_* codes; paths of this issue: /v1/revenue/connection and its dashboard twin).
 *
 * Choices the spec leaves open:
 * - Only restricted keys (`rk_live_`, `rk_test_`) are taken: a secret key can write, and the service
 *   promises never to. The key is checked before anything is stored, by one read of each list the
 *   sync needs (customers, subscriptions, invoices, prices, events); the first refused read is named
 *   in `remediation`. A processor that does not answer is 502 PROCESSOR_UNAVAILABLE (ours).
 * - The key is sealed with ENCRYPTION_KEY (AES-256-GCM) and registered for `encryption:reseal`; only
 *   its last four characters and mode are ever answered. No key configured: 503
 *   PROCESSOR_CONNECT_NOT_CONFIGURED, checked before anything else, so no key is ever held unsealed.
 * - Order of checks: plan (PLAN_UPGRADE_REQUIRED), server key, key format, already connected (409),
 *   the plan's connection limit (Indie: one across the account's projects, under an advisory lock on
 *   the account; Builder: one per project), then the processor. The unique index on project decides
 *   a race between two connects of one project.
 * - Disconnecting deletes the key and everything synced through it, and clears `paying` on the
 *   project's contacts (the processor was what set it). Connecting again starts a fresh backfill.
 */
@Injectable()
export class RevenueConnectionService {
  constructor(
    private readonly box: ProcessorKeyBox,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly clients: ProcessorClients,
    private readonly syncs: RevenueSyncs,
    private readonly contacts: ContactsService,
    sealedValues: SealedValues,
  ) {
    sealedValues.register({ name: 'revenue_connections', sample: sampleSealedKey, resealAll: resealKeys });
  }

  async connectProcessor(project: ProjectRef, input: ConnectProcessorDto): Promise<ProcessorConnectionDto> {
    this.assertConfigured();
    const key = input.key.trim();
    const mode = RESTRICTED_KEY.exec(key)?.[1] as 'live' | 'test' | undefined;
    if (!mode) {
      throw new ApiError('PROCESSOR_KEY_NOT_RESTRICTED', 'Only restricted read-only keys (rk_live_… or rk_test_…) can be connected.', {
        param: 'key',
      });
    }
    await this.db.transaction((em) => this.assertCanConnect(em, project));
    const permissions = await this.clients.reader(key).checkPermissions();
    const now = this.clock.now();
    const row = Object.assign(new RevenueConnectionEntity(), {
      id: newId('rvc'),
      projectId: project.id,
      accountId: project.accountId,
      provider: 'stripe' as const,
      keyCiphertext: this.box.seal(key),
      keyLastFour: key.slice(-4),
      keyMode: mode,
      permissions,
      connectedAt: now,
      eventsSince: null,
      lastSyncedAt: null,
      lastFullSyncAt: null,
    });
    try {
      await this.db.transaction(async (em) => {
        await this.assertCanConnect(em, project);
        await em.insert(RevenueConnectionEntity, row);
        await this.syncs.schedule(em, row, 'backfill', now);
      });
    } catch (error) {
      if (isUniqueViolation(error, UQ_REVENUE_CONNECTIONS_PROJECT)) throw alreadyConnected();
      throw error;
    }
    return this.getConnection(project);
  }

  async getConnection(project: ProjectRef): Promise<ProcessorConnectionDto> {
    const row = await this.requireConnection(this.db.manager, project);
    return {
      provider: row.provider,
      key_last_four: row.keyLastFour,
      mode: row.keyMode,
      permissions: row.permissions,
      connected_at: row.connectedAt.toISOString(),
      sync: await this.syncs.status(this.db.manager, row),
    };
  }

  async disconnectProcessor(project: ProjectRef): Promise<DisconnectedDto> {
    await this.db.transaction(async (em) => {
      if (!(await deleteProjectRevenue(em, project.id))) throw notConnected();
      await this.contacts.setPayingContacts(em, project.id, []);
    });
    return { disconnected: true };
  }

  /** Runs a sync now: brings the queued run forward, or queues one (an incremental run, or the backfill if none finished yet). */
  async startSync(project: ProjectRef): Promise<SyncStartedDto> {
    const started = await this.db.transaction(async (em) => {
      const row = await this.requireConnection(em, project, true);
      return this.syncs.runSoon(em, row);
    });
    return { project_id: project.id, status: syncStatusOf(started, this.clock.now(), null), kind: started.kind };
  }

  /** The CLI's `revenue:sync`: queues a run as startSync does, then runs it in this process and answers how it ended. */
  async syncNow(project: ProjectRef): Promise<SyncStartedDto> {
    const started = await this.startSync(project);
    const row = await this.db.transaction(async (em) => findPendingSync(em, (await this.requireConnection(em, project)).id));
    if (row) await this.syncs.runSync({ id: row.id });
    const connection = await this.requireConnection(this.db.manager, project);
    const status = await this.syncs.status(this.db.manager, connection);
    return { project_id: project.id, status: status.state, kind: started.kind };
  }

  private async assertCanConnect(em: EntityManager, project: ProjectRef): Promise<void> {
    if (await findConnection(em, project.id)) throw alreadyConnected();
    if (planLimit(project.plan, 'processorConnections') !== 'account' || !project.accountId) return;
    await lockAccountConnections(em, project.accountId);
    if (await accountHasOtherConnection(em, project.accountId, project.id)) {
      throw new ApiError(
        'PROCESSOR_CONNECTION_LIMIT_REACHED',
        'Another project of this account already has a payment-processor connection.',
        {
          remediation:
            'The Indie plan allows one connection per account: disconnect the other project, or move to Builder (one per project).',
        },
      );
    }
  }

  private async requireConnection(em: EntityManager, project: ProjectRef, lock = false): Promise<RevenueConnectionEntity> {
    const row = lock
      ? await em.findOne(RevenueConnectionEntity, { where: { projectId: project.id }, lock: { mode: 'pessimistic_write' } })
      : await findConnection(em, project.id);
    if (!row) throw notConnected();
    return row;
  }

  private assertConfigured(): void {
    if (!this.box.configured) {
      throw new ApiError('PROCESSOR_CONNECT_NOT_CONFIGURED', 'This server cannot seal processor keys: ENCRYPTION_KEY is not configured.');
    }
  }
}

export function notConnected(): ApiError {
  return new ApiError('PROCESSOR_NOT_CONNECTED', 'This project has no payment-processor connection.', {
    remediation: 'Connect a restricted key with PUT /v1/revenue/connection first.',
  });
}

function alreadyConnected(): ApiError {
  return new ApiError('PROCESSOR_ALREADY_CONNECTED', 'This project already has a payment-processor connection.', {
    remediation: 'Disconnect it with DELETE /v1/revenue/connection before connecting another key.',
  });
}
