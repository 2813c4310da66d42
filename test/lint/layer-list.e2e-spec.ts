import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The layer lists of eslint.layers.cjs, which eslint.config.mjs turns into import boundaries. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const LAYERS = require('../../eslint.layers.cjs') as Record<string, string[]>;

const foldersOfSrc = () =>
  readdirSync(join(__dirname, '../../src'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** What is wrong with the lists against the folders: a folder in no layer or in two, a listed folder missing. */
function layerListProblems(layers: Record<string, string[]>, folders: string[]): string[] {
  const problems: string[] = [];
  for (const folder of folders) {
    const holders = Object.keys(layers).filter((layer) => layers[layer].includes(folder));
    if (holders.length === 0) problems.push(`src/${folder}/ is in no layer`);
    if (holders.length > 1) problems.push(`src/${folder}/ is in ${holders.join(' and ')}`);
  }
  for (const [layer, listed] of Object.entries(layers)) {
    for (const folder of listed) if (!folders.includes(folder)) problems.push(`${layer} lists ${folder}, which is not a folder of src/`);
  }
  return problems;
}

describe('layer lists (eslint.layers.cjs)', () => {
  it('put every folder of src/ in exactly one layer, and list only folders that exist', () => {
    expect(Object.keys(LAYERS)).toEqual(['KERNEL', 'INFRA', 'PLATFORM', 'FEATURES', 'SHELL', 'BROWSER']);
    expect(layerListProblems(LAYERS, foldersOfSrc())).toEqual([]);
  });

  it('names a folder in no layer, a folder in two and a listed folder that does not exist', () => {
    const layers = { KERNEL: ['common'], PLATFORM: ['auth', 'widgets'], FEATURES: ['auth'] };
    expect(layerListProblems(layers, ['auth', 'common', 'revenue'])).toEqual([
      'src/auth/ is in PLATFORM and FEATURES',
      'src/revenue/ is in no layer',
      'PLATFORM lists widgets, which is not a folder of src/',
    ]);
  });
});
