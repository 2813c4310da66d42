import { type EntityManager, IsNull, LessThanOrEqual, MoreThan, Not } from 'typeorm';
import { CustomDomainEntity } from './entities/custom-domain.entity';

/** The project's verified hostnames and its claims made after `lapsedBefore`, oldest first. */
export function listLiveProjectDomains(em: EntityManager, projectId: string, lapsedBefore: Date): Promise<CustomDomainEntity[]> {
  return em.find(CustomDomainEntity, {
    where: [
      { projectId, verifiedAt: Not(IsNull()) },
      { projectId, createdAt: MoreThan(lapsedBefore) },
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
    createdAt: LessThanOrEqual(lapsedBefore),
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
  check: { checkedAt: Date; error: string | null; lapsedBefore: Date },
): Promise<boolean> {
  const result = await em.update(
    CustomDomainEntity,
    { id: claim.id, projectId: claim.projectId, verifiedAt: IsNull(), createdAt: MoreThan(check.lapsedBefore) },
    { lastCheckedAt: check.checkedAt, lastCheckError: check.error, verifiedAt: check.error === null ? check.checkedAt : null },
  );
  return (result.affected ?? 0) > 0;
}

/** The project and slug a verified hostname serves, or null. */
export async function projectOfVerifiedHost(em: EntityManager, hostname: string): Promise<{ projectId: string; slug: string } | null> {
  const rows = (await em.query(
    `SELECT p.id AS project_id, p.slug FROM custom_domains d JOIN projects p ON p.id = d.project_id
     WHERE d.hostname = $1 AND d.verified_at IS NOT NULL`,
    [hostname],
  )) as { project_id: string; slug: string }[];
  return rows[0] ? { projectId: rows[0].project_id, slug: rows[0].slug } : null;
}
