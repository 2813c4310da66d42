import { type EntityManager, IsNull, LessThanOrEqual, MoreThan, Not } from 'typeorm';
import { projectsAs } from '../projects/projects.queries';
import { CustomDomainEntity } from './entities/custom-domain.entity';

/** The project's verified hostnames and its claims made after `lapsedBefore`, oldest first. */
export function listLiveProjectDomains(em: EntityManager, projectId: string, lapsedBefore: Date): Promise<CustomDomainEntity[]> {
  return em.find(CustomDomainEntity, {
    where: [
      { projectId, verifiedAt: Not(IsNull()) },
      { projectId, pendingSince: MoreThan(lapsedBefore) },
    ],
    order: { id: 'ASC' },
  });
}

export function findProjectDomain(em: EntityManager, projectId: string, id: string): Promise<CustomDomainEntity | null> {
  return em.findOne(CustomDomainEntity, { where: { projectId, id } });
}

export function countProjectDomains(em: EntityManager, projectId: string): Promise<number> {
  return em.count(CustomDomainEntity, { where: { projectId } });
}

/** Whether a project other than `projectId` holds the hostname verified. */
export async function verifiedByAnotherProject(em: EntityManager, hostname: string, projectId: string): Promise<boolean> {
  return em.exists(CustomDomainEntity, { where: { hostname, verifiedAt: Not(IsNull()), projectId: Not(projectId) } });
}

/** Deletes pending claims made at or before `lapsedBefore`: all of them, or one project's. */
export async function deleteLapsedClaims(em: EntityManager, lapsedBefore: Date, projectId?: string): Promise<number> {
  const result = await em.delete(CustomDomainEntity, {
    ...(projectId === undefined ? {} : { projectId }),
    verifiedAt: IsNull(),
    pendingSince: LessThanOrEqual(lapsedBefore),
  });
  return result.affected ?? 0;
}

/**
 * Records a check of a pending claim that has not lapsed; with `verifiedAt` set, the claim becomes
 * the hostname's verified one (the partial unique index refuses a second). False when no such
 * pending claim was left to update.
 */
export async function recordCheck(
  em: EntityManager,
  claim: { id: string; projectId: string },
  check: { checkedAt: Date; error: string | null; lapsedBefore: Date; nextCheckAt: Date },
): Promise<boolean> {
  const verified = check.error === null;
  const result = await em.update(
    CustomDomainEntity,
    { id: claim.id, projectId: claim.projectId, verifiedAt: IsNull(), pendingSince: MoreThan(check.lapsedBefore) },
    {
      lastCheckedAt: check.checkedAt,
      lastCheckError: check.error,
      verifiedAt: verified ? check.checkedAt : null,
      nextCheckAt: verified ? check.nextCheckAt : null,
    },
  );
  return (result.affected ?? 0) > 0;
}

/** The project and slug a verified hostname serves, or null. */
export async function projectOfVerifiedHost(em: EntityManager, hostname: string): Promise<{ projectId: string; slug: string } | null> {
  const rows = (await em.query(
    `SELECT p.id AS project_id, p.slug FROM custom_domains d JOIN ${projectsAs('p')} ON p.id = d.project_id
     WHERE d.hostname = $1 AND d.verified_at IS NOT NULL`,
    [hostname],
  )) as { project_id: string; slug: string }[];
  return rows[0] ? { projectId: rows[0].project_id, slug: rows[0].slug } : null;
}

/**
 * Takes up to `limit` verified hostnames whose re-check is due and moves their next check to
 * `leaseUntil`, in one statement: SKIP LOCKED lets every worker process run the re-check at once
 * while each hostname is taken by one of them only; one that crashes mid-check leaves its hostnames
 * due again when the lease ends. Raw SQL because TypeORM's update cannot say SKIP LOCKED.
 */
export async function claimDueRechecks(em: EntityManager, now: Date, leaseUntil: Date, limit: number): Promise<CustomDomainEntity[]> {
  const [rows] = (await em.query(
    `UPDATE custom_domains SET next_check_at = $2
     WHERE id IN (SELECT id FROM custom_domains WHERE verified_at IS NOT NULL AND next_check_at <= $1
                  ORDER BY next_check_at LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING id, project_id, hostname, verification_token, failing_since`,
    [now, leaseUntil, limit],
  )) as [{ id: string; project_id: string; hostname: string; verification_token: string; failing_since: Date | null }[], number];
  return rows.map((row) =>
    Object.assign(new CustomDomainEntity(), {
      id: row.id,
      projectId: row.project_id,
      hostname: row.hostname,
      verificationToken: row.verification_token,
      failingSince: row.failing_since,
    }),
  );
}

/** Writes a re-check's outcome on a hostname that is still verified; false when it no longer is. */
export async function recordRecheck(
  em: EntityManager,
  domain: { id: string; projectId: string },
  outcome: Partial<Pick<CustomDomainEntity, 'lastCheckedAt' | 'lastCheckError' | 'nextCheckAt' | 'failingSince'>>,
): Promise<boolean> {
  const result = await em.update(CustomDomainEntity, { id: domain.id, projectId: domain.projectId, verifiedAt: Not(IsNull()) }, outcome);
  return (result.affected ?? 0) > 0;
}

/**
 * Stops serving a verified hostname whose TXT record stayed gone through the grace period: it
 * becomes a pending claim again, with the same token and a fresh CLAIM_TTL_MS, and no longer holds
 * the name against other projects.
 */
export async function releaseDomain(
  em: EntityManager,
  domain: { id: string; projectId: string },
  release: { at: Date; error: string },
): Promise<boolean> {
  const result = await em.update(
    CustomDomainEntity,
    { id: domain.id, projectId: domain.projectId, verifiedAt: Not(IsNull()) },
    {
      verifiedAt: null,
      nextCheckAt: null,
      failingSince: null,
      pendingSince: release.at,
      lastCheckedAt: release.at,
      lastCheckError: release.error,
    },
  );
  return (result.affected ?? 0) > 0;
}
