import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { BROWSER_SCRIPTS, type BrowserBundle } from './served-script';

/** Where `npm run build` writes the bundles: dist/browser/, beside the compiled server's folders. */
const BUILT_BUNDLES_DIR = join(__dirname, '..', 'browser');

/**
 * True when the server runs from its TypeScript sources (the test suites, through ts-jest): there
 * is no build then, and the bundles are made in memory from src/browser/ instead, so a test always
 * sees the current sources.
 */
export const RUNNING_FROM_SOURCES = __filename.endsWith('.ts');

/** The built bundles; fails with the command that makes them when the build is missing. */
export function readBuiltBundles(dir: string = BUILT_BUNDLES_DIR): BrowserBundle[] {
  return BROWSER_SCRIPTS.map((name) => {
    const script = join(dir, `${name}.js`);
    if (!existsSync(script) || !existsSync(`${script}.map`)) {
      throw new Error(
        `The browser scripts are not built: ${script} or its .map is missing. Run \`npm run build\`, which bundles src/browser/ after compiling the server.`,
      );
    }
    return { name, script: readFileSync(script), map: readFileSync(`${script}.map`) };
  });
}

interface BrowserBuild {
  bundleBrowserScripts(): Promise<BrowserBundle[]>;
}

/** The bundles made in memory by the build script (esbuild, a development dependency): for RUNNING_FROM_SOURCES only. */
export function bundleFromSources(): Promise<BrowserBundle[]> {
  const build = createRequire(__filename)(join(__dirname, '..', '..', 'scripts', 'build-browser.js')) as BrowserBuild;
  return build.bundleBrowserScripts();
}
