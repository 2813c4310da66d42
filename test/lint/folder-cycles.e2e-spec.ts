import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import madge from 'madge';

/**
 * No cycle between the folders of src/ (docs/architecture.md, "Layers"): the import graph of every
 * file, type-only imports included, folded to one node per top-level folder (infra/<x> for infra,
 * one node for the root files of src/). A lower module that needs something of a higher one takes
 * it by registration; it never imports it.
 */
const SRC = join(__dirname, '../../src');
const ROOT_FILES = 'src/*.ts';

/** The file graph of a folder as madge reads it: type-only imports count. */
async function fileGraph(dir: string): Promise<Record<string, string[]>> {
  const result = await madge(dir, {
    baseDir: dir,
    fileExtensions: ['ts'],
    tsConfig: join(__dirname, '../../tsconfig.json'),
    detectiveOptions: { ts: { skipTypeImports: false } },
  });
  return result.obj();
}

function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return ROOT_FILES;
  return parts[0] === 'infra' && parts.length > 2 ? `infra/${parts[1]}` : parts[0];
}

/** Folder → folders it imports, each edge with one file import that makes it. */
function folderGraph(files: Record<string, string[]>): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const [file, imports] of Object.entries(files)) {
    // A spec may import a test helper from outside src/ (../test/support): not a folder of src/.
    if (file.startsWith('../')) continue;
    const from = folderOf(file);
    for (const imported of imports) {
      if (imported.startsWith('../')) continue;
      const to = folderOf(imported);
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, `${file} imports ${imported}`);
    }
  }
  return graph;
}

/** Each cycle as its folders in order back to the first, with the file import behind each step. */
function cyclesOf(graph: Map<string, Map<string, string>>): string[] {
  const cycles: string[] = [];
  const seen = new Set<string>();
  for (const start of [...graph.keys()].sort()) {
    // The shortest way back to `start`, breadth first, over folders not already in a reported cycle.
    const previous = new Map<string, string>();
    const queue = [start];
    let closing: string | null = null;
    while (queue.length > 0 && closing === null) {
      const folder = queue.shift()!;
      for (const next of [...(graph.get(folder)?.keys() ?? [])].sort()) {
        if (next === start) {
          closing = folder;
          break;
        }
        if (seen.has(next) || previous.has(next)) continue;
        previous.set(next, folder);
        queue.push(next);
      }
    }
    if (closing === null) continue;
    const path = [closing];
    while (path[0] !== start) path.unshift(previous.get(path[0])!);
    path.forEach((folder) => seen.add(folder));
    const steps = path.map((folder, index) => graph.get(folder)!.get(path[index + 1] ?? start)!);
    cycles.push(`${[...path, start].join(' → ')} (${steps.join('; ')})`);
  }
  return cycles;
}

describe('folder cycles', () => {
  it('finds none between the folders of src/', async () => {
    const graph = folderGraph(await fileGraph(SRC));
    // The graph is real: the shell imports the features, and features import the platform.
    expect(graph.get(ROOT_FILES)?.has('changelog')).toBe(true);
    expect(graph.get('changelog')?.has('projects')).toBe(true);
    expect(cyclesOf(graph)).toEqual([]);
  }, 300_000);

  it('names a planted cycle, through a type-only import and between two infra folders', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folder-cycles-'));
    const plant = (file: string, source: string) => {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), source);
    };
    try {
      plant('feature/feature.service.ts', "import type { Port } from '../platform/port';\nexport const use = (port: Port) => port;\n");
      plant('platform/port.ts', "import { use } from '../feature/feature.service';\nexport interface Port { use: typeof use }\n");
      plant('infra/mail/mail.ts', "import { queue } from '../queue/queue';\nexport const mail = queue;\n");
      plant('infra/queue/queue.ts', "import { helper } from '../mail/helper';\nexport const queue = helper;\n");
      plant('infra/mail/helper.ts', 'export const helper = 1;\n');

      expect(cyclesOf(folderGraph(await fileGraph(dir)))).toEqual([
        'feature → platform → feature (feature/feature.service.ts imports platform/port.ts; platform/port.ts imports feature/feature.service.ts)',
        'infra/mail → infra/queue → infra/mail (infra/mail/mail.ts imports infra/queue/queue.ts; infra/queue/queue.ts imports infra/mail/helper.ts)',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('counts the root files of src/ as one node', () => {
    const graph = folderGraph({ 'app.module.ts': ['openapi/document.ts'], 'openapi/generate.ts': ['bootstrap.ts'] });
    expect(cyclesOf(graph)).toEqual([
      'openapi → src/*.ts → openapi (openapi/generate.ts imports bootstrap.ts; app.module.ts imports openapi/document.ts)',
    ]);
  });
});
