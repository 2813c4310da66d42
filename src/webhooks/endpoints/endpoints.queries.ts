import { EntityManager } from 'typeorm';
import { WebhookEndpointEntity } from '../entities/webhook-endpoint.entity';

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
