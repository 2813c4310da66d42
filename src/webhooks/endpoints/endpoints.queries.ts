import { EntityManager } from 'typeorm';
import { WebhookEndpointEntity } from '../entities/webhook-endpoint.entity';

/**
 * Serialises endpoint creation per project (the same row lock as the changelog's caps): two
 * concurrent creates at the limit both wait here, the second then counts the first's row.
 */
export async function lockProject(em: EntityManager, projectId: string): Promise<void> {
  await em.query('SELECT 1 FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
}

export function countEndpoints(em: EntityManager, projectId: string): Promise<number> {
  return em.count(WebhookEndpointEntity, { where: { projectId } });
}

export function listEndpoints(em: EntityManager, projectId: string): Promise<WebhookEndpointEntity[]> {
  return em.find(WebhookEndpointEntity, { where: { projectId }, order: { createdAt: 'ASC', id: 'ASC' } });
}

export function findEndpoint(em: EntityManager, projectId: string, id: string, forUpdate = false): Promise<WebhookEndpointEntity | null> {
  return em.findOne(WebhookEndpointEntity, {
    where: { projectId, id },
    ...(forUpdate ? { lock: { mode: 'pessimistic_write' as const } } : {}),
  });
}

/** Deletes the endpoint; its deliveries go with it (fk_webhook_deliveries_endpoint ON DELETE CASCADE). */
export async function deleteEndpoint(em: EntityManager, projectId: string, id: string): Promise<boolean> {
  const result = await em.delete(WebhookEndpointEntity, { projectId, id });
  return (result.affected ?? 0) > 0;
}
