import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { isId, newId } from '../common/ids/ids';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../infra/database/database.service';
import { isUniqueViolation } from '../infra/database/postgres-errors';
import { planLimit } from '../projects/plans';
import { lockProject } from '../projects/project-lock';
import type { ProjectRef } from '../projects/project-ref';
import { ProjectsService } from '../projects/projects.service';
import { CustomDomainHosts } from './custom-domain-hosts.service';
import {
  countProjectDomains,
  deleteLapsedClaims,
  findProjectDomain,
  listLiveProjectDomains,
  recordCheck,
  verifiedByAnotherProject,
} from './custom-domains.queries';
import { DnsResolver } from './dns-resolver';
import { RECHECK_INTERVAL_MS, hasLapsed, lapsedBefore } from './domain-claims';
import { CreateCustomDomainDto } from './dto/create-custom-domain.dto';
import { CustomDomainDto, DeletedCustomDomainDto, toCustomDomainDto } from './dto/custom-domain.dto';
import {
  CustomDomainEntity,
  UQ_CUSTOM_DOMAINS_PROJECT_HOSTNAME,
  UQ_CUSTOM_DOMAINS_VERIFIED_HOSTNAME,
} from './entities/custom-domain.entity';
import { DomainRecheck } from './domain-recheck.service';
import { checkProof } from './domain-proof';
import { hostnameProblem, normalizeHostname } from './hostnames';

/**
 * Custom domains for the hosted changelog page, its feeds and the waitlist page (spec:
 * CUSTOM_DOMAIN_NOT_CONFIGURED, HOSTNAME_ALREADY_REGISTERED, CUSTOM_DOMAIN_LIMIT_REACHED).
 *
 * Choices the spec leaves open:
 * - Server settings: CUSTOM_DOMAIN_CNAME_TARGET (the host owners point a CNAME at). Unset, every
 *   domain route answers 503 and no Host is served as a custom domain.
 * - Plans: the `custom_domain` feature (Builder and up) decides whether a project may add any
 *   (PLAN_UPGRADE_REQUIRED); `customDomains` in plans.ts how many (Builder 5, Scale 20). Pending
 *   claims count until they lapse. Taking the project lock before counting makes the cap hold
 *   under concurrency.
 * - Claims: adding a hostname is a claim, pending until verified. A pending claim blocks no one:
 *   other projects may claim the same name, each with its own token, and the first to verify holds
 *   it (the partial unique index over verified rows decides a race). HOSTNAME_ALREADY_REGISTERED
 *   means another project holds it verified, answered on add and on verify; the losing claims stay
 *   pending and lapse. A project claims a name once (the same code, with its own message).
 * - Lapse: a claim not verified 7 days after it was added (or after the re-check released it;
 *   domain-claims.ts) is ignored at once, by the Clock: left out of the list and the plan count,
 *   refused on verify (NOT_FOUND), replaced when its project claims the name again; the daily sweep
 *   (claim-expiry.service.ts) deletes it.
 * - Proof of control: only a TXT record `_launch-service.<hostname>` with the claim's own token.
 *   The CNAME to the shared target routes traffic, and anyone can point one there, so it proves
 *   nothing. A check that fails is an answer (200, status `pending`, `last_check_error` says what
 *   was looked for), not an error.
 * - Re-check (domain-recheck.service.ts): a verified hostname's TXT record is looked at again
 *   every 24 hours, by one worker process of the cluster for each hostname. Found: nothing
 *   changes. Gone (the lookup answered without it): status `failing`, still serving, with
 *   `last_check_error` and `expires_at` = 7 days after it was first found gone; looked at hourly
 *   meanwhile, and verify looks at once. Back within those 7 days: `verified` again. Still gone
 *   after them: the hostname stops serving and becomes a pending claim (same token, 7 days to
 *   verify again), which no longer blocks other projects. A lookup that fails (timeout, SERVFAIL)
 *   changes no status; it is retried within the hour. The CNAME is not checked: it proves nothing,
 *   apex hostnames route by A/ALIAS records and flattening providers hide it, so a missing CNAME
 *   would be no evidence of anything, and traffic that goes elsewhere harms only its owner.
 */
@Injectable()
export class CustomDomainsService {
  private readonly logger = new Logger(CustomDomainsService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly dns: DnsResolver,
    private readonly hosts: CustomDomainHosts,
    private readonly recheck: DomainRecheck,
    private readonly projects: ProjectsService,
  ) {}

  async listDomains(project: ProjectRef): Promise<CustomDomainDto[]> {
    const target = this.cnameTarget();
    const rows = await listLiveProjectDomains(this.db.manager, project.id, lapsedBefore(this.clock.now()));
    return rows.map((row) => toCustomDomainDto(row, target));
  }

  async createDomain(project: ProjectRef, input: CreateCustomDomainDto): Promise<CustomDomainDto> {
    const target = this.cnameTarget();
    const hostname = normalizeHostname(input.hostname);
    const problem = hostnameProblem(hostname, this.ownHosts(target));
    if (problem) throw new ApiError('VALIDATION_ERROR', `hostname ${problem}.`, { param: 'hostname' });
    try {
      return await this.db.transaction(async (em) => {
        await lockProject(em, project.id);
        const now = this.clock.now();
        // The project's lapsed claims give way: they no longer count, and the name may be claimed anew.
        await deleteLapsedClaims(em, lapsedBefore(now), project.id);
        if (await verifiedByAnotherProject(em, hostname, project.id)) throw verifiedElsewhere(hostname, 'hostname');
        await this.checkPlanLimit(em, project);
        const row = Object.assign(new CustomDomainEntity(), {
          id: newId('dom'),
          projectId: project.id,
          hostname,
          verificationToken: randomBytes(16).toString('hex'),
          verifiedAt: null,
          lastCheckedAt: null,
          lastCheckError: null,
          nextCheckAt: null,
          failingSince: null,
          pendingSince: now,
          createdAt: now,
        });
        await em.insert(CustomDomainEntity, row);
        return toCustomDomainDto(row, target);
      });
    } catch (error) {
      if (!isUniqueViolation(error, UQ_CUSTOM_DOMAINS_PROJECT_HOSTNAME)) throw error;
      throw new ApiError('HOSTNAME_ALREADY_REGISTERED', `${hostname} is already one of this project's hostnames.`, {
        param: 'hostname',
        remediation: 'Verify the claim the project has (GET /v1/dashboard/domains lists it), or remove it first.',
      });
    }
  }

  async verifyDomain(project: ProjectRef, id: string): Promise<CustomDomainDto> {
    const target = this.cnameTarget();
    const row = await this.findDomain(project, id);
    if (row.verifiedAt && row.failingSince) {
      // The owner says the record is back: look now rather than at the next scheduled check.
      await this.recheck.recheck(row);
      return toCustomDomainDto(await this.findDomain(project, id), target);
    }
    if (row.verifiedAt) return toCustomDomainDto(row, target);
    if (hasLapsed(row, this.clock.now())) throw lapsedClaim(row.hostname);
    if (await verifiedByAnotherProject(this.db.manager, row.hostname, project.id)) throw verifiedElsewhere(row.hostname, 'id');
    // DNS is asked outside any transaction: a slow resolver must not hold a connection.
    const error = await this.checkDns(row);
    const checkedAt = this.clock.now();
    try {
      const nextCheckAt = new Date(checkedAt.getTime() + RECHECK_INTERVAL_MS);
      await recordCheck(this.db.manager, row, { checkedAt, error, lapsedBefore: lapsedBefore(checkedAt), nextCheckAt });
    } catch (failure) {
      if (isUniqueViolation(failure, UQ_CUSTOM_DOMAINS_VERIFIED_HOSTNAME)) throw verifiedElsewhere(row.hostname, 'id');
      throw failure;
    }
    // Read back: a concurrent check, a removal or the lapse may have come first.
    const current = await this.findDomain(project, id);
    if (!current.verifiedAt && hasLapsed(current, checkedAt)) throw lapsedClaim(current.hostname);
    if (current.verifiedAt) await this.hosts.changed(current.hostname);
    return toCustomDomainDto(current, target);
  }

  async deleteDomain(project: ProjectRef, id: string): Promise<DeletedCustomDomainDto> {
    this.cnameTarget();
    const row = await this.findDomain(project, id);
    await this.db.manager.delete(CustomDomainEntity, { id: row.id, projectId: project.id });
    await this.hosts.changed(row.hostname);
    return { id: row.id, deleted: true };
  }

  private async checkPlanLimit(em: EntityManager, project: ProjectRef): Promise<void> {
    const plan = await this.projects.currentPlan(em, project.id);
    const limit = planLimit(plan, 'customDomains');
    if ((await countProjectDomains(em, project.id)) < limit) return;
    throw new ApiError('CUSTOM_DOMAIN_LIMIT_REACHED', `The ${plan} plan allows ${limit} custom hostname${limit === 1 ? '' : 's'}.`, {
      param: 'hostname',
    });
  }

  private async findDomain(project: ProjectRef, id: string): Promise<CustomDomainEntity> {
    const row = isId('dom', id) ? await findProjectDomain(this.db.manager, project.id, id) : null;
    if (!row) throw new ApiError('NOT_FOUND', `No custom domain ${id.slice(0, 40)} in this project.`, { param: 'id' });
    return row;
  }

  /** Null when the TXT record with the claim's token is in place, else what was missing. */
  private async checkDns(row: CustomDomainEntity): Promise<string | null> {
    const proof = await checkProof(this.dns, row);
    if (proof.outcome === 'found') return null;
    if (proof.outcome === 'lookup_failed') this.logger.warn(`DNS check of ${row.hostname} failed: ${proof.code}`);
    return proof.error;
  }

  private cnameTarget(): string {
    const settings = this.config.customDomains;
    if (!settings)
      throw new ApiError('CUSTOM_DOMAIN_NOT_CONFIGURED', 'Custom domains are not configured on this server.', {
        remediation: 'The operator must set CUSTOM_DOMAIN_CNAME_TARGET.',
      });
    return settings.cnameTarget;
  }

  private ownHosts(target: string): string[] {
    return [new URL(this.config.publicBaseUrl).hostname, new URL(this.config.cdnUrl).hostname, target];
  }
}

function verifiedElsewhere(hostname: string, param: 'hostname' | 'id'): ApiError {
  return new ApiError('HOSTNAME_ALREADY_REGISTERED', `${hostname} is verified by another project.`, { param });
}

function lapsedClaim(hostname: string): ApiError {
  return new ApiError('NOT_FOUND', `The claim on ${hostname} expired 7 days after it was added; add the hostname again.`, {
    param: 'id',
    remediation:
      'POST /v1/dashboard/domains with the hostname makes a new claim with a new token; publish that one and verify within 7 days.',
  });
}
