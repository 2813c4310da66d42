const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d+)(ms|s|m|h|d)$/;

/** Parses "1m,5m,30m,2h,6h" into milliseconds; returns null when any part is not a duration. */
export function parseDurationList(value: string): number[] | null {
  const parts = value.split(',').map((part) => part.trim());
  const result: number[] = [];
  for (const part of parts) {
    const match = DURATION.exec(part);
    if (!match) return null;
    result.push(Number(match[1]) * UNIT_MS[match[2]]);
  }
  return result.length > 0 ? result : null;
}
