/**
 * Preloaded into the service by bench/soak.js (node --require): answers each `memory` message on
 * the IPC channel with the process's process.memoryUsage(), which /proc cannot tell (heap,
 * external), and, with BENCH_SOAK_GC=on, the heap still used after a full collection right then:
 * what a leak grows, without the garbage that heap used carries between collections. Off by
 * default: forced collections make V8 hand memory back, so the RSS would not be the process's own.
 * The channel is unref'd, so it never keeps the service from exiting.
 */
const v8 = require('node:v8');
const vm = require('node:vm');

function collector() {
  if (process.env.BENCH_SOAK_GC !== 'on') return null;
  // The flag only has to be on while the function is fetched: the process keeps its other flags.
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc');
}

if (process.send) {
  const gc = collector();
  process.on('message', (message) => {
    if (message !== 'memory') return;
    const memory = process.memoryUsage();
    let heapAfterGc = null;
    if (gc) {
      gc();
      heapAfterGc = process.memoryUsage().heapUsed;
    }
    process.send({ memory, heapAfterGc });
  });
  process.channel.unref();
}
