import { DateTime } from 'luxon';

/** The zone the demo companies keep their books in, and the zone of the monthly cap's reset. */
export const COMPANY_ZONE = 'America/Los_Angeles';

/**
 * The sandbox's notion of now. Tests shift it (POST /__sandbox/control {clock_offset_seconds}) to cross
 * a month boundary or let a job expire, without waiting.
 */
export class Clock {
  offsetSeconds = 0;

  /** `wall` is the clock the offset applies to (the machine's by default). */
  constructor(private readonly wall: () => number = () => Date.now()) {}

  nowMs(): number {
    return this.wall() + this.offsetSeconds * 1000;
  }

  /** Unix seconds. */
  now(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  /** Today's date (YYYY-MM-DD) in the company's zone. */
  today(): string {
    return DateTime.fromMillis(this.nowMs(), { zone: COMPANY_ZONE }).toISODate()!;
  }

  /** The monthly-cap month (YYYY-MM) in Pacific time. */
  usageMonth(): string {
    return DateTime.fromMillis(this.nowMs(), { zone: COMPANY_ZONE }).toFormat('yyyy-MM');
  }

  /** The next monthly reset: midnight Pacific time on the 1st of next month. */
  nextMonthlyReset(): DateTime {
    return DateTime.fromMillis(this.nowMs(), { zone: COMPANY_ZONE }).startOf('month').plus({ months: 1 });
  }
}
