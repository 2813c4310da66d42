// @ts-check
/**
 * Lint: typescript-eslint (with the promise rules that catch a forgotten `await`) and the import
 * boundaries of ARCHITECTURE.md, which keep the layers honest as modules are added:
 * - kernel (`common/`, `config/`) imports only the kernel;
 * - `infra/` imports the kernel and infra;
 * - platform modules (auth, projects, …) import kernel, infra and each other, never a feature;
 * - a feature imports another feature only through its module or its services.
 * The application shell (main, bootstrap, app.module, cli, the registries) may import anything.
 */
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const KERNEL = ['common', 'config'];
const INFRA = ['infra'];
// email-templates: the one email renderer and its catalog, used by every feature that sends mail.
const PLATFORM = ['auth', 'projects', 'idempotency', 'events', 'health', 'openapi', 'email-templates'];
export const FEATURES = [
  'analytics',
  'contacts',
  'dashboard',
  'feedback',
  'waitlist',
  'changelog',
  'notifications',
  'webhooks',
  'mcp',
  'widgets',
  'billing',
  'custom-domains',
  'browser-scripts',
];
const SHELL = ['cli'];
const MAX_DEPTH = 5;

const up = (depth) => `(\\.\\./){${depth}}`;
const anyOf = (names) => `(${names.join('|')})`;

/**
 * One block per folder depth, so a relative import is resolved exactly: from `src/<layer>/a/b.ts`
 * (depth 2), `../../x/` is `src/x/`.
 */
function forbid(layer, forbidden, message, extraPatterns = () => []) {
  return Array.from({ length: MAX_DEPTH }, (_, index) => {
    const depth = index + 1;
    const files = [
      `src/${layer}/${Array(depth - 1)
        .fill('*')
        .concat('*.ts')
        .join('/')}`,
    ];
    const patterns = [];
    if (forbidden.length > 0) patterns.push({ regex: `^${up(depth)}${anyOf(forbidden)}(/|$)`, message });
    patterns.push(...extraPatterns(depth));
    return { files, rules: { 'no-restricted-imports': ['error', { patterns }] } };
  });
}

const boundaries = [
  ...KERNEL.flatMap((layer) =>
    forbid(
      layer,
      [...INFRA, ...PLATFORM, ...FEATURES, ...SHELL],
      `${layer}/ is the kernel: it imports no infra, platform module or feature.`,
    ),
  ),
  ...INFRA.flatMap((layer) => forbid(layer, [...PLATFORM, ...FEATURES, ...SHELL], 'infra/ imports only the kernel and infra.')),
  ...PLATFORM.flatMap((layer) => forbid(layer, [...FEATURES, ...SHELL], `${layer}/ is a platform module: it imports no feature.`)),
  ...FEATURES.flatMap((layer) =>
    forbid(layer, SHELL, 'Features do not import the CLI.', (depth) => [
      {
        // Another feature's module, services and API shapes only: `../contacts/contacts.service`, `../contacts/dto/contact.dto`,
        // or those of one of its sub-modules (`../changelog/entries/entries.service`, `../changelog/entries/dto/entry.dto`).
        // mcp/ is a second surface over the controllers' use cases: it reaches the same services and
        // DTOs where they live (use-case folders included), never entities, queries or helpers.
        regex:
          layer === 'mcp'
            ? `^${up(depth)}${anyOf(FEATURES.filter((other) => other !== layer))}/(?!(([^/]+/)*[^/]+\\.(module|service)|([^/]+/)*dto/[^/]+)$)`
            : `^${up(depth)}${anyOf(FEATURES.filter((other) => other !== layer))}/(?!(([^/]+/)?[^/]+\\.(module|service)|([^/]+/)?dto/[^/]+)$)`,
        message: 'Reach another feature through its module, its services or its DTOs, never its internals (entities, queries, helpers).',
      },
    ]),
  ),
];

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

/** Per folder depth under src/browser/, so that `../` beyond src/browser/ is caught exactly. */
const browserImports = Array.from({ length: MAX_DEPTH }, (_, depth) => ({
  files: [['src/browser', ...Array(depth).fill('*'), '*.ts'].join('/')],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { regex: '^[^.]', message: 'The browser scripts have no runtime dependencies: import only from src/browser/.' },
          { regex: `^${up(depth + 1)}`, message: 'Browser code imports only from src/browser/ (its own folder or shared/).' },
        ],
      },
    ],
  },
}));

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
    files: ['bench/**/*.js', 'scripts/**/*.js', '*.js', '*.mjs'],
    languageOptions: { globals: { ...globals.node }, sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  { files: ['*.mjs'], languageOptions: { sourceType: 'module' } },
  ...boundaries,
  browserScripts,
  ...browserImports,
  prettier,
);
