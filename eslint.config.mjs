// @ts-check
/**
 * Lint: typescript-eslint (with the promise rules that catch a forgotten `await`) and the import
 * boundaries of docs/architecture.md, which keep the layers honest as modules are added:
 * - kernel (`common/`, `config/`) imports only the kernel;
 * - `infra/` imports the kernel and infra;
 * - platform modules (auth, projects, …) import kernel, infra and each other, never a feature;
 * - a feature imports another feature only through its module or its services;
 * - nothing below the shell imports the shell: its folders (cli/, dev/) and the root files of src/
 *   (main, bootstrap, app.module, entities, …), which may import anything.
 * Each folder's layer is listed in eslint.layers.cjs (a test checks the list against the tree).
 * Imports are matched after resolution to a file (import-x/no-restricted-paths), so `./../../x`
 * is the file it names; an import that resolves to nothing is an error of its own, so none is
 * left unchecked.
 */
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import { join } from 'node:path';
import tseslint from 'typescript-eslint';
import layers from './eslint.layers.cjs';

const { KERNEL, INFRA, PLATFORM, FEATURES, SHELL, BROWSER } = layers;
const ROOT = import.meta.dirname;
/** Every file of these folders of src/, at any depth. */
const inside = (folders) => folders.map((folder) => `src/${folder}/**`);
/** The application shell's root files: src/main.ts, src/app.module.ts, src/entities.ts, … */
const ROOT_FILES = 'src/*.ts';

/** One zone: files of `folder` may not import files of `from` (globs under the repository). */
const zone = (folder, from, message, except = []) => ({ target: `src/${folder}/**`, from, except, message });

/**
 * What another feature lets a feature import: its module, its services and its DTOs, or those of
 * one of its sub-modules (`changelog/entries/entries.service`, `changelog/entries/dto/entry.dto`).
 * mcp/ is a second surface over the controllers' use cases: it reaches the same services and DTOs
 * where they live (use-case folders included), never entities, queries or helpers.
 */
function publicFilesOf(feature, anyDepth) {
  const base = join(ROOT, 'src', feature);
  return anyDepth
    ? [`${base}/**/*.@(module|service).ts`, `${base}/**/dto/*.ts`]
    : [`${base}/{*,*/*}.@(module|service).ts`, `${base}/{dto,*/dto}/*.ts`];
}

const zones = [
  ...KERNEL.map((layer) =>
    zone(
      layer,
      [...inside([...INFRA, ...PLATFORM, ...FEATURES, ...SHELL, ...BROWSER]), ROOT_FILES],
      `${layer}/ is the kernel: it imports no infra, platform module, feature or application shell.`,
    ),
  ),
  ...INFRA.map((layer) =>
    zone(
      layer,
      [...inside([...PLATFORM, ...FEATURES, ...SHELL, ...BROWSER]), ROOT_FILES],
      'infra/ imports only the kernel and infra (no module, feature or application shell).',
    ),
  ),
  ...PLATFORM.map((layer) =>
    zone(
      layer,
      [...inside([...FEATURES, ...SHELL, ...BROWSER]), ROOT_FILES],
      `${layer}/ is a platform module: it imports no feature and no application shell.`,
    ),
  ),
  ...FEATURES.flatMap((layer) => {
    const others = FEATURES.filter((other) => other !== layer);
    return [
      zone(layer, [...inside([...SHELL, ...BROWSER]), ROOT_FILES], 'Features do not import the CLI or the application shell.'),
      zone(
        layer,
        inside(others),
        'Reach another feature through its module, its services or its DTOs, never its internals (entities, queries, helpers).',
        others.flatMap((other) => publicFilesOf(other, layer === 'mcp')),
      ),
    ];
  }),
  ...BROWSER.map((layer) =>
    zone(layer, ['src/!(browser)/**', ROOT_FILES], 'Browser code imports only from src/browser/ (its own folder or shared/).'),
  ),
];

const boundaries = {
  files: ['src/**/*.ts'],
  plugins: { 'import-x': importX },
  settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.d.ts', '.js', '.json'] })] },
  rules: {
    'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones }],
    // A relative import that resolves to no file would pass the zones unchecked.
    'import-x/no-unresolved': ['error', { ignore: ['^[^.]'] }],
  },
};

/**
 * The browser scripts (src/browser/, bundled by esbuild, embedded on customers' pages): DOM globals,
 * no runtime dependencies and nothing from the server, no code from strings (a CSP without
 * 'unsafe-eval' refuses it), no markup from strings (API values are text), no inline styles (a CSP
 * without 'unsafe-inline' refuses them; styles go through adoptedStyleSheets).
 */
const browserScripts = {
  files: ['src/browser/**/*.ts'],
  languageOptions: { globals: { ...globals.browser } },
  rules: {
    'no-eval': 'error',
    'no-implied-eval': 'error',
    'no-new-func': 'error',
    'no-restricted-properties': [
      'error',
      ...['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'createContextualFragment'].map((property) => ({
        property,
        message: 'Build elements with h() from shared/dom.ts: values from the API go in as text.',
      })),
      { object: 'document', property: 'write', message: 'Build elements with h() from shared/dom.ts.' },
      ...['style', 'cssText'].map((property) => ({
        property,
        message: 'No inline styles (a strict CSP refuses them): use classes in the component stylesheet (adoptStyles).',
      })),
    ],
  },
};

/** The browser scripts have no runtime dependencies (where they may import from is a zone above). */
const browserImports = {
  files: ['src/browser/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [{ regex: '^[^.]', message: 'The browser scripts have no runtime dependencies: import only from src/browser/.' }] },
    ],
  },
};

export default tseslint.config(
  // The classifier's weights are generated data (npm run train:classifier), checked by a test instead.
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.data/', '.test-build/', 'src/feedback/classifier/model/weights.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  {
    files: ['bench/**/*.js', 'scripts/**/*.js', '*.js', '*.cjs', '*.mjs'],
    languageOptions: { globals: { ...globals.node }, sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['*.mjs'], languageOptions: { sourceType: 'module' } },
  boundaries,
  browserScripts,
  browserImports,
  prettier,
);
