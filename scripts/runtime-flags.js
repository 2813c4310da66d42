/**
 * The V8 flags every service process runs with, the API and the worker alike. The npm scripts
 * (package.json), the Docker image and its compose file repeat them; the dev runner, the test
 * harness and the benchmarks take them from here; test/lint/runtime-flags.e2e-spec.ts fails when a
 * copy differs.
 *
 * - `--max-semi-space-size=32`: a larger young generation. A request allocates tens to hundreds of
 *   kilobytes that die with it; V8's default young generation filled every few hundred requests.
 * - `--no-allocation-site-pretenuring`: V8 starts allocating the objects of an allocation site
 *   directly in the old generation once most of them survived a young collection, and does not go
 *   back. In a running service that happened to pg's query results: from then on every result was
 *   born old, and the rows parsed into it outlived young collections until the next full one (an
 *   old object is not traced by a young collection, dead or alive). On the widget's list that
 *   promoted 50 kB of rows a request instead of 1-4, and cost 110-160 µs more CPU a request in the
 *   collector; the same loop of statements in a fresh process promoted none (docs/benchmarks.md,
 *   Reading the numbers).
 */
const RUNTIME_FLAGS = Object.freeze(['--max-semi-space-size=32', '--no-allocation-site-pretenuring']);

module.exports = { RUNTIME_FLAGS };
