import { addMonths, companyDate, monthOf, monthStart } from './calendar';

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
    return companyDate(this.nowMs());
  }

  /** The monthly-cap month (YYYY-MM) in Pacific time. */
  usageMonth(): string {
    return monthOf(this.today());
  }

  /** The date (YYYY-MM-DD) of the next monthly reset, at midnight Pacific time: the 1st of next month. */
  nextMonthlyReset(): string {
    return addMonths(monthStart(this.today()), 1);
  }
}
