import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import { isId, newId } from '../common/ids/ids';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../infra/database/database';
import { isUniqueViolation } from '../infra/database/postgres-errors';
import { ProjectEntity } from '../projects/entities/project.entity';
import { planLimit } from '../projects/plans';
import { lockProject } from '../projects/project-lock';
import type { ProjectRef } from '../projects/project-ref';
import { CustomDomainHosts } from './custom-domain-hosts.service';
import { countProjectDomains, findProjectDomain, listProjectDomains } from './custom-domains.queries';
import { DnsResolver } from './dns-resolver';
import { CreateCustomDomainDto } from './dto/create-custom-domain.dto';
import { CustomDomainDto, DeletedCustomDomainDto, toCustomDomainDto } from './dto/custom-domain.dto';
import { CustomDomainEntity, UQ_CUSTOM_DOMAINS_HOSTNAME } from './entities/custom-domain.entity';
import { hostnameProblem, normalizeHostname, sameHost, verificationRecordName, verificationRecordValue } from './hostnames';

/**
 * Custom domains for the hosted changelog page and feeds (issue 14 point 5; spec:
 * CUSTOM_DOMAIN_NOT_CONFIGURED, HOSTNAME_ALREADY_REGISTERED, CUSTOM_DOMAIN_LIMIT_REACHED).
 *
 * Choices the spec leaves open:
 * - Server settings: CUSTOM_DOMAIN_CNAME_TARGET (the host owners point a CNAME at). Unset, every
 *   domain route answers 503 and no Host is served as a custom domain.
 * - Plans: the `custom_domain` feature (Builder and up) decides whether a project may add any
 *   (PLAN_UPGRADE_REQUIRED); `customDomains` in plans.ts how many (Builder 5, Scale 20). Pending
 *   hostnames count. Taking the project lock before counting makes the cap hold under concurrency.
 * - Proof of control: a TXT record `_launch-service.<hostname>` with the domain's token, or a CNAME
 *   from the hostname to the target. A check that fails is an answer (200, status `pending`,
 *   `last_check_error` says what was looked for), not an error. Once verified, a domain stays
 *   verified until removed (no periodic re-check).
 * - A hostname belongs to one project in the whole service, pending or verified; a second add,
 *   by anyone, is HOSTNAME_ALREADY_REGISTERED (the unique index decides).
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
  ) {}

  async listDomains(project: ProjectRef): Promise<CustomDomainDto[]> {
    const target = this.cnameTarget();
    const rows = await listProjectDomains(this.db.manager, project.id);
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
        const { plan } = await em.findOneOrFail(ProjectEntity, { where: { id: project.id }, select: { id: true, plan: true } });
        const limit = planLimit(plan, 'customDomains');
        if ((await countProjectDomains(em, project.id)) >= limit) {
          throw new ApiError('CUSTOM_DOMAIN_LIMIT_REACHED', `The ${plan} plan allows ${limit} custom hostname${limit === 1 ? '' : 's'}.`, {
            param: 'hostname',
          });
        }
        const row = Object.assign(new CustomDomainEntity(), {
          id: newId('dom'),
          projectId: project.id,
          hostname,
          verificationToken: randomBytes(16).toString('hex'),
          verifiedAt: null,
          lastCheckedAt: null,
          lastCheckError: null,
          createdAt: this.clock.now(),
        });
        await em.insert(CustomDomainEntity, row);
        return toCustomDomainDto(row, target);
      });
    } catch (error) {
      if (!isUniqueViolation(error, UQ_CUSTOM_DOMAINS_HOSTNAME)) throw error;
      throw new ApiError('HOSTNAME_ALREADY_REGISTERED', `${hostname} is already registered to a project.`, { param: 'hostname' });
    }
  }

  async verifyDomain(project: ProjectRef, id: string): Promise<CustomDomainDto> {
    const target = this.cnameTarget();
    const row = await this.findDomain(project, id);
    if (row.verifiedAt) return toCustomDomainDto(row, target);
    // DNS is asked outside any transaction: a slow resolver must not hold a connection.
    const error = await this.checkDns(row, target);
    const now = this.clock.now();
    const changes = { lastCheckedAt: now, lastCheckError: error, verifiedAt: error ? null : now };
    await this.db.manager.update(CustomDomainEntity, { id: row.id, projectId: project.id }, changes);
    if (!error) this.hosts.forget(row.hostname);
    return toCustomDomainDto(Object.assign(row, changes), target);
  }

  async deleteDomain(project: ProjectRef, id: string): Promise<DeletedCustomDomainDto> {
    this.cnameTarget();
    const row = await this.findDomain(project, id);
    await this.db.manager.delete(CustomDomainEntity, { id: row.id, projectId: project.id });
    this.hosts.forget(row.hostname);
    return { id: row.id, deleted: true };
  }

  private async findDomain(project: ProjectRef, id: string): Promise<CustomDomainEntity> {
    const row = isId('dom', id) ? await findProjectDomain(this.db.manager, project.id, id) : null;
    if (!row) throw new ApiError('NOT_FOUND', `No custom domain ${id.slice(0, 40)} in this project.`, { param: 'id' });
    return row;
  }

  /** Null when the TXT record or the CNAME is in place, else what was missing. */
  private async checkDns(row: CustomDomainEntity, target: string): Promise<string | null> {
    const txtName = verificationRecordName(row.hostname);
    const expected = verificationRecordValue(row.verificationToken);
    try {
      const [txt, cname] = await Promise.all([this.dns.resolveTxt(txtName), this.dns.resolveCname(row.hostname)]);
      if (txt.some((chunks) => chunks.join('').trim() === expected)) return null;
      if (cname.some((name) => sameHost(name, target))) return null;
      return `No TXT record ${txtName} with the value ${expected}, and no CNAME from ${row.hostname} to ${target}.`;
    } catch (error) {
      this.logger.warn(`DNS check of ${row.hostname} failed: ${(error as { code?: string }).code ?? (error as Error).message}`);
      return `The DNS lookup of ${row.hostname} failed (${(error as { code?: string }).code ?? 'error'}); retry in a few minutes.`;
    }
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
