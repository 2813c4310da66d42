// Bundles the browser scripts (src/browser/<name>/index.ts) with esbuild into dist/browser/: for
// each script a minified IIFE `<name>.js`, its source map `<name>.js.map`, and `manifest.json` with
// their SHA-256 and gzip -9 sizes, which it prints against the budgets. `npm run build` runs it
// after tsc; the server serves the files (src/browser-scripts/), writing its PUBLIC_BASE_URL into
// them. Running from the TypeScript sources (the test suites), the server bundles in memory through
// bundleBrowserScripts() instead.
//
//   node scripts/build-browser.js [--outdir <dir>] [--watch]
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { join, relative, resolve } = require('node:path');
const { gzipSync } = require('node:zlib');

const ROOT = join(__dirname, '..');
const SOURCE = join(ROOT, 'src', 'browser');
const OUTDIR = join(ROOT, 'dist', 'browser');
const KB = 1024;

/** The scripts, one folder each under src/browser/, served as /v1/<name>.js; budgets in gzip -9 bytes. */
const SCRIPTS = {
  notifications: { budget: 12 * KB },
  changelog: { budget: 10 * KB },
};

/** Browsers that have every API the scripts use (adoptedStyleSheets arrived last: Firefox 101, Safari 16.4). */
const TARGET = ['chrome100', 'edge100', 'firefox101', 'safari16.4'];

/** `import styles from './x.css'` gives the file's minified text, for adoptStyles (src/browser/shared/element.ts). */
const cssAsText = {
  name: 'css-as-text',
  setup(build) {
    const esbuild = require('esbuild');
    build.onLoad({ filter: /\.css$/ }, async (args) => {
      const css = readFileSync(args.path, 'utf8');
      const { code } = await esbuild.transform(css, { loader: 'css', minify: true, target: TARGET, sourcefile: args.path });
      return { contents: code.trim(), loader: 'text', watchFiles: [args.path] };
    });
  },
};

function buildOptions(outdir) {
  return {
    entryPoints: Object.keys(SCRIPTS).map((name) => ({ in: join(SOURCE, name, 'index.ts'), out: name })),
    outdir,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: TARGET,
    minify: true,
    sourcemap: 'linked',
    sourcesContent: true,
    legalComments: 'none',
    charset: 'utf8',
    tsconfig: join(SOURCE, 'tsconfig.json'),
    plugins: [cssAsText],
    write: false,
    logLevel: 'silent',
  };
}

/**
 * A source map whose `sources` are paths from the repository root (`src/browser/shared/api.ts`), so
 * the map is the same wherever the build writes and names no folder of the machine that built it.
 */
function rootRelativeMap(map, outdir) {
  const parsed = JSON.parse(Buffer.from(map).toString('utf8'));
  parsed.sources = parsed.sources.map((source) => relative(ROOT, resolve(outdir, source)).split('\\').join('/'));
  return Buffer.from(JSON.stringify(parsed), 'utf8');
}

/** esbuild's output files as `{name, script, map}` (Buffers), in the order of SCRIPTS. */
function bundlesOf(outputFiles, outdir) {
  const byPath = new Map(outputFiles.map((file) => [relative(outdir, file.path), file.contents]));
  return Object.keys(SCRIPTS).map((name) => ({
    name,
    script: Buffer.from(byPath.get(`${name}.js`)),
    map: rootRelativeMap(byPath.get(`${name}.js.map`), outdir),
  }));
}

/** Bundles every script in memory: `[{name, script, map}]`, as the build writes them. */
async function bundleBrowserScripts(outdir = OUTDIR) {
  const esbuild = require('esbuild');
  const result = await esbuild.build(buildOptions(outdir));
  return bundlesOf(result.outputFiles, outdir);
}

const gzipSize = (buffer) => gzipSync(buffer, { level: 9 }).length;

/** What manifest.json records of each script: files, SHA-256 (hex) and sizes against the budget. */
function manifestOf(bundles) {
  const scripts = {};
  for (const { name, script } of bundles) {
    scripts[name] = {
      file: `${name}.js`,
      map: `${name}.js.map`,
      sha256: createHash('sha256').update(script).digest('hex'),
      bytes: script.length,
      gzip_bytes: gzipSize(script),
      budget_gzip_bytes: SCRIPTS[name].budget,
    };
  }
  return { scripts };
}

/** Replaces `outdir` with the bundles and their manifest; answers the manifest. */
function writeBundles(bundles, outdir) {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  for (const { name, script, map } of bundles) {
    writeFileSync(join(outdir, `${name}.js`), script);
    writeFileSync(join(outdir, `${name}.js.map`), map);
  }
  const manifest = manifestOf(bundles);
  writeFileSync(join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

const kilobytes = (bytes) => `${(bytes / KB).toFixed(1)} kB`;

/** The size report: one line per script, gzip -9 against its budget (1 kB = 1,024 bytes). */
function sizeReport(manifest, outdir) {
  const where = relative(ROOT, outdir).startsWith('..') ? outdir : relative(ROOT, outdir);
  const lines = [`Browser scripts in ${where} (gzip -9, 1 kB = 1,024 bytes):`];
  for (const entry of Object.values(manifest.scripts)) {
    const over = entry.gzip_bytes > entry.budget_gzip_bytes ? '  OVER BUDGET' : '';
    lines.push(
      `  ${entry.file.padEnd(18)} ${kilobytes(entry.gzip_bytes).padStart(8)} of ${kilobytes(entry.budget_gzip_bytes)} (${entry.bytes.toLocaleString('en')} bytes minified)${over}`,
    );
  }
  return lines.join('\n');
}

function parseArguments(argv) {
  const options = { outdir: OUTDIR, watch: false };
  for (let index = 0; index < argv.length; index++) {
    if (argv[index] === '--watch') options.watch = true;
    else if (argv[index] === '--outdir' && argv[index + 1]) options.outdir = resolve(argv[++index]);
    else throw new Error(`unknown argument ${argv[index]}; usage: node scripts/build-browser.js [--outdir <dir>] [--watch]`);
  }
  return options;
}

async function main() {
  const { outdir, watch } = parseArguments(process.argv.slice(2));
  if (!watch) {
    process.stdout.write(`${sizeReport(writeBundles(await bundleBrowserScripts(outdir), outdir), outdir)}\n`);
    return;
  }
  // `npm run start:dev`: rebuild on every change; the server restarts when dist/ changes.
  const esbuild = require('esbuild');
  const writeOnEnd = {
    name: 'write-on-end',
    setup(build) {
      build.onEnd((result) => {
        if (result.errors.length)
          return void process.stderr.write(`Browser scripts: ${result.errors.length} error(s), kept the last build\n`);
        process.stderr.write(`${sizeReport(writeBundles(bundlesOf(result.outputFiles, outdir), outdir), outdir)}\n`);
      });
    },
  };
  const options = buildOptions(outdir);
  const context = await esbuild.context({ ...options, plugins: [...options.plugins, writeOnEnd], logLevel: 'error' });
  await context.watch();
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`Browser scripts failed to build: ${error.message}\n`);
    process.exit(1);
  });
}

module.exports = { SCRIPTS, TARGET, bundleBrowserScripts, gzipSize, manifestOf };
