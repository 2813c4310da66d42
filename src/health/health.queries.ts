import type { EntityManager } from 'typeorm';

/** The health check's round trip: the smallest statement the database must answer. */
export async function pingDatabase(em: EntityManager): Promise<void> {
  await em.query('SELECT 1');
}
