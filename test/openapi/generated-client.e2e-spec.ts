import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as ts from 'typescript';

/**
 * What docs/generate-a-client.md promises: openapi-typescript on the committed document, with no
 * flags, gives types that openapi-fetch calls compile against under `strict`; the guide's own
 * example is one of the files checked. The calls leave out every field the server fills in
 * (`audience`, `icon`), so a default that turns into a compulsory field fails here; the
 * `@ts-expect-error` lines prove the types still refuse what the server refuses.
 */
const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const GUIDE = join(ROOT, 'docs', 'generate-a-client.md');

/** The guide's one TypeScript example. */
function guideExample(): string {
  const blocks = [...readFileSync(GUIDE, 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);
  expect(blocks).toHaveLength(1);
  return blocks[0];
}

const CLIENT = `import createClient from 'openapi-fetch';
import type { components, paths } from './launch-service';

const client = createClient<paths>({
  baseUrl: 'http://localhost:3000',
  headers: { Authorization: 'Bearer svc_test_key' },
});

type Entry = components['schemas']['Entry'];

export async function calls(): Promise<Array<string | undefined>> {
  // No audience, no notify_* switches: the server makes the entry public and published.
  const entry = await client.POST('/v1/changelog/entries', {
    body: { title: 'Export to PDF', body_markdown: 'You can now **export** any report.', category: 'feature' },
  });
  const created: Entry | undefined = entry.data?.data;

  // No audience and no icon: one person, the info icon.
  const sent = await client.POST('/v1/notifications', {
    body: { title: 'Your export is ready', body: 'Download it from Reports.', user_id: 'user_42' },
    params: { header: { 'Idempotency-Key': 'export-ready-42' } },
  });

  const signup = await client.POST('/v1/waitlist/signups', { body: { email: 'ada@example.com' } });

  const deliveries = await client.GET('/v1/webhooks/{id}/deliveries', {
    params: { path: { id: 'we_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' }, query: { limit: 10 } },
  });
  const retried = await client.POST('/v1/webhooks/{id}/deliveries/{delivery_id}/retry', {
    params: { path: { id: 'we_01JD3Z4Q9X8V7T6S5R4Q3P2N1M', delivery_id: 'whd_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' } },
  });
  const notification = await client.GET('/v1/notifications/{id}', {
    params: { path: { id: 'ntf_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' } },
  });

  // @ts-expect-error title is required
  await client.POST('/v1/changelog/entries', { body: { body_markdown: 'No title', category: 'feature' } });
  // @ts-expect-error the path parameter of a notification is id
  await client.GET('/v1/notifications/{id}', { params: { path: { notification_id: 'ntf_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' } } });

  const failure: string | undefined = entry.error?.error.code;
  return [
    created?.id,
    sent.data?.data.id,
    signup.data?.data.position?.toString(),
    deliveries.data?.data[0]?.id,
    deliveries.data?.meta.next_cursor ?? undefined,
    retried.data?.data.id,
    notification.data?.data.id,
    failure,
  ];
}
`;

/** The TypeScript an integrator starts from: strict, current module resolution, a runtime with fetch. */
const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
};

describe('a client generated from openapi/openapi.json', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'launch-client-'));
    // The integrator's project: its own folder, with openapi-fetch installed beside it.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("type-checks openapi-fetch calls, the guide's example among them, that leave out every field with a server default", async () => {
    // Exactly the command of docs/generate-a-client.md, no flags.
    await run(join(ROOT, 'node_modules', '.bin', 'openapi-typescript'), ['openapi/openapi.json', '-o', join(dir, 'launch-service.d.ts')], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
    });
    const files = [join(dir, 'client.ts'), join(dir, 'guide.ts')];
    writeFileSync(files[0], CLIENT);
    writeFileSync(files[1], guideExample());

    const program = ts.createProgram(files, COMPILER_OPTIONS);
    const errors = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
      if (!diagnostic.file || diagnostic.start === undefined) return message;
      const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      return `${diagnostic.file.fileName.replace(dir, '<client>')}:${line + 1}: ${message}`;
    });
    expect(errors).toEqual([]);
    // The program really read the generated types (an unresolved import would be an error above, but say it plainly).
    expect(program.getSourceFile(join(dir, 'launch-service.d.ts'))).toBeDefined();
  }, 120_000);
});
