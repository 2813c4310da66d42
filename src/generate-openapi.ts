import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHttpApp } from './bootstrap';
import { loadConfig, withDatabaseUrl } from './config/app-config';
import { startEmbeddedPostgres } from './infra/database/embedded-postgres';
import { COMMITTED_SERVER_URL, buildOpenApiDocument } from './openapi/openapi-document';
import { OPENAPI_PATH, serializeDocument } from './openapi/openapi-file';

/** `npm run openapi`: boots the app on a throwaway in-memory database and writes the document. */
async function generate(): Promise<void> {
  Logger.overrideLogger(['error']);
  const embedded = await startEmbeddedPostgres({ dataDir: 'memory' });
  const config = withDatabaseUrl(
    loadConfig({ LOG_LEVEL: 'silent', WORKERS: 'off', ENCRYPTION_KEY: Buffer.alloc(32).toString('base64') }),
    embedded.url,
  );
  const app = await createHttpApp(config);
  try {
    mkdirSync(join(OPENAPI_PATH, '..'), { recursive: true });
    writeFileSync(OPENAPI_PATH, serializeDocument(buildOpenApiDocument(app, { serverUrl: COMMITTED_SERVER_URL, strict: true })));
    process.stdout.write(`Wrote ${OPENAPI_PATH}\n`);
  } finally {
    await app.close();
    await embedded.stop();
  }
}

if (require.main === module) {
  generate().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack}\n`);
    process.exit(1);
  });
}
