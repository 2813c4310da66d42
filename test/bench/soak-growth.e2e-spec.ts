interface Sample {
  seconds: number;
  rssMb: number;
  heapUsedMb: number;
  externalMb: number;
  heapAfterGcMb: number | null;
}
interface Growth {
  fromSeconds: number[];
  toSeconds: number[];
  rss: number | null;
  rssMedian: number | null;
  heapUsed: number | null;
  external: number | null;
  heapAfterGc: number | null;
}
type GrowthOf = (samples: Sample[], fromSeconds: number, periods: { cycleSeconds: number; reportSeconds: number }) => Growth | null;

/**
 * The soak's memory verdict (`npm run bench:soak`): a run takes ten minutes, so the arithmetic that
 * turns its samples into "flat" or "growing" is checked here on samples made up for it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a bench script, plain CommonJS
const { growth } = require('../../bench/soak-growth') as { growth: GrowthOf };

// The soak's defaults: a sample every 30 s, a broadcast every 60 s.
const PERIODS = { cycleSeconds: 60, reportSeconds: 30 };

/** Ten minutes of samples every 30 s; `rssAt` gives RSS in MB at a time. */
function run(rssAt: (seconds: number) => number, heapAfterGc = false): Sample[] {
  return Array.from({ length: 21 }, (_, index) => {
    const seconds = index * 30;
    return { seconds, rssMb: rssAt(seconds), heapUsedMb: 80, externalMb: 4, heapAfterGcMb: heapAfterGc ? 70 : null };
  });
}

// Every broadcast sends the next minute's polls to the database: RSS a third higher half the time.
const swinging = (seconds: number) => (Math.floor(seconds / 30) % 2 === 0 ? 150 : 200);

describe('soak memory growth', () => {
  it('compares windows of two cycles at each end, from the first steady sample on', () => {
    const result = growth(run(swinging), 60, PERIODS)!;
    expect(result.fromSeconds).toEqual([60, 90, 120, 150]);
    expect(result.toSeconds).toEqual([510, 540, 570, 600]);
  });

  it('reads a swing of the collector as no growth, whichever phase each end caught', () => {
    // A sample at the swing's low (60 s) against one at its high (570 s) would read +33%.
    const samples = run(swinging);
    expect(samples[2].rssMb).toBe(150);
    expect(samples[samples.length - 1].rssMb).toBe(150);
    expect(samples[samples.length - 2].rssMb).toBe(200);
    const result = growth(samples, 60, PERIODS)!;
    expect(result.rss).toBe(0);
    expect(result.rssMedian).toBe(0);
    expect(result.heapUsed).toBe(0);
  });

  it('reads a leak under the swing as growth of the peaks', () => {
    // 20 MB more every minute: the peak of the last windows is far above the first's.
    const result = growth(
      run((seconds) => swinging(seconds) + seconds / 3),
      60,
      PERIODS,
    )!;
    expect(result.rss).toBeCloseTo((200 + 570 / 3 - (200 + 150 / 3)) / (200 + 150 / 3), 6);
    expect(result.rss).toBeGreaterThan(0.1);
  });

  it('gives no heap-after-GC figure when the run did not take one, and one when it did', () => {
    expect(growth(run(swinging), 60, PERIODS)!.heapAfterGc).toBeNull();
    expect(growth(run(swinging, true), 60, PERIODS)!.heapAfterGc).toBe(0);
  });

  it('narrows the windows to half the steady samples on a short run, and gives nothing on fewer than two', () => {
    const short = run(swinging).slice(0, 6); // 0 to 150 s
    const result = growth(short, 60, PERIODS)!;
    expect(result.fromSeconds).toEqual([60, 90]);
    expect(result.toSeconds).toEqual([120, 150]);
    expect(growth(short.slice(0, 3), 60, PERIODS)).toBeNull();
  });
});
