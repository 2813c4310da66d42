/**
 * The layers of src/ (docs/architecture.md, "Layers"): every folder directly under src/ belongs to
 * exactly one, and a test (test/lint/layer-list.e2e-spec.ts) checks this list against the tree.
 * eslint.config.mjs turns it into the import boundaries: from KERNEL to SHELL, a layer imports
 * only itself and the layers listed before it (a feature reaches another feature only through its
 * module, services and DTOs); BROWSER imports only itself. The root files of src/ (main.ts,
 * app.module.ts, entities.ts, …) are the application shell with the SHELL folders.
 */
module.exports = {
  KERNEL: ['common', 'config'],
  INFRA: ['infra'],
  // accounts: the people who own projects (below projects and auth). email-templates: the one email
  // renderer and its catalog, used by every feature that sends mail.
  PLATFORM: ['accounts', 'auth', 'projects', 'idempotency', 'events', 'health', 'openapi', 'email-templates'],
  FEATURES: [
    'analytics',
    'billing',
    'browser-scripts',
    'changelog',
    'contacts',
    'custom-domains',
    'dashboard',
    'feedback',
    'mcp',
    'notifications',
    'revenue',
    'waitlist',
    'webhooks',
  ],
  // The command line and the development aids (GET /dev/mail, GET /demo; not registered in production).
  SHELL: ['cli', 'dev'],
  // The browser scripts' sources, bundled by esbuild: nothing of the server, no runtime dependency.
  BROWSER: ['browser'],
};
