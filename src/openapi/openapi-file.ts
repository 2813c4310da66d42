import { join } from 'node:path';

/** The committed document, written by `npm run openapi` (src/generate-openapi.ts) and checked by its test. */
export const OPENAPI_PATH = join(__dirname, '..', '..', 'openapi', 'openapi.json');

export function serializeDocument(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
