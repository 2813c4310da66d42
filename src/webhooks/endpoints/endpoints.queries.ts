import { EntityManager } from 'typeorm';
import type { Reseal } from '../../infra/encryption/sealed-values.service';
import { WebhookEndpointEntity } from '../entities/webhook-endpoint.entity';

/**
 * SQL: whether the project whose id is the column `projectIdColumn` has an enabled endpoint, the
 * only kind deliveries are planned for. The API key lookup reads it into its cached project, so
 * that requests of projects without one skip the planning statement (delivery-planner.service.ts).
 */
export const enabledEndpointExists = (projectIdColumn: string): string =>
  `EXISTS (SELECT 1 FROM webhook_endpoints we WHERE we.project_id = ${projectIdColumn} AND we.status = 'enabled')`;

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

/** Deletes the endpoint; its deliveries and their attempts go with it (ON DELETE CASCADE, both foreign keys). */
export async function deleteEndpoint(em: EntityManager, projectId: string, id: string): Promise<boolean> {
  const result = await em.delete(WebhookEndpointEntity, { projectId, id });
  return (result.affected ?? 0) > 0;
}

interface SealedEndpointRow {
  id: string;
  url_ciphertext: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
}

/** Any one sealed value of any endpoint (the start-up key check tries it); null when there is none. */
export async function sampleSealedEndpointValue(em: EntityManager): Promise<string | null> {
  const rows: Array<{ secret_ciphertext: string }> = await em.query('SELECT secret_ciphertext FROM webhook_endpoints LIMIT 1');
  return rows[0]?.secret_ciphertext ?? null;
}

/**
 * `encryption:reseal`'s pass over the endpoints: URL, secret and previous secret of every row,
 * locked for update; only rows with a changed value are written. Every project's endpoints in one
 * read: a few per project (the plans allow at most 5), re-sealed once in a key's life.
 */
export async function resealEndpoints(em: EntityManager, reseal: Reseal): Promise<void> {
  const rows: SealedEndpointRow[] = await em.query(
    'SELECT id, url_ciphertext, secret_ciphertext, previous_secret_ciphertext FROM webhook_endpoints ORDER BY id FOR UPDATE',
  );
  for (const row of rows) {
    const url = reseal(row.url_ciphertext, row.id);
    const secret = reseal(row.secret_ciphertext, row.id);
    const previous = row.previous_secret_ciphertext === null ? null : reseal(row.previous_secret_ciphertext, row.id);
    if (url === row.url_ciphertext && secret === row.secret_ciphertext && previous === row.previous_secret_ciphertext) continue;
    await em.query(
      'UPDATE webhook_endpoints SET url_ciphertext = $2, secret_ciphertext = $3, previous_secret_ciphertext = $4 WHERE id = $1',
      [row.id, url, secret, previous],
    );
  }
}
