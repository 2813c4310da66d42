import type { EntityManager } from 'typeorm';
import { CustomDomainEntity } from './entities/custom-domain.entity';

export function listProjectDomains(em: EntityManager, projectId: string): Promise<CustomDomainEntity[]> {
  return em.find(CustomDomainEntity, { where: { projectId }, order: { id: 'ASC' } });
}

export function findProjectDomain(em: EntityManager, projectId: string, id: string): Promise<CustomDomainEntity | null> {
  return em.findOne(CustomDomainEntity, { where: { projectId, id } });
}

export function countProjectDomains(em: EntityManager, projectId: string): Promise<number> {
  return em.count(CustomDomainEntity, { where: { projectId } });
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
