import { withAdminClient } from './test-database';

export default async function globalTeardown(): Promise<void> {
  const base = process.env.DATABASE_URL;
  const template = process.env.LAUNCH_TEST_TEMPLATE;
  if (!base || !template) return;
  await withAdminClient(base, (client) => client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
}
