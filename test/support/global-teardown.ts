import { TEMPLATE_DATABASE, withAdminClient } from './test-database';

export default async function globalTeardown(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) return;
  await withAdminClient(base, (client) => client.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`));
}
