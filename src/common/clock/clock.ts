/**
 * The source of "now" for every service. Production uses the system clock; tests inject an
 * `AdjustableClock` and move time explicitly instead of sleeping.
 */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** Follows real time shifted by an offset, or stands still once frozen. */
export class AdjustableClock extends Clock {
  private offsetMs = 0;
  private frozenAt: number | null = null;

  now(): Date {
    return new Date(this.frozenAt ?? Date.now() + this.offsetMs);
  }

  freeze(at: Date | string = new Date()): void {
    this.frozenAt = new Date(at).getTime();
  }

  advance(milliseconds: number): void {
    if (this.frozenAt !== null) this.frozenAt += milliseconds;
    else this.offsetMs += milliseconds;
  }

  reset(): void {
    this.offsetMs = 0;
    this.frozenAt = null;
  }
}
