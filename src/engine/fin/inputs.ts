// A FIN formula's date arguments as the engine needs them: read against the company's today, its fiscal
// year and the workbook's date system (asked of the host only when a serial number needs it).

import { argumentsToPeriod, parseDateArgument, type DateArgument, type DateSystem, type Period } from '../dates';
import { isMissing } from './args';
import { FinError, finErrors } from './errors';

export type DateSystemSource = DateSystem | (() => DateSystem | Promise<DateSystem>);

export interface InputOptions {
  /** The company's calendar date, `YYYY-MM-DD`. */
  today: () => string;
  /** The workbook's date system; only asked for when an argument is an Excel serial number. */
  dateSystem: DateSystemSource;
  fiscalYearStart: () => number;
  /** Upper bound for reading the workbook's date system from the host (default 15 s). */
  hostTimeoutMs?: number;
}

export class FinInputs {
  private dateSystemPromise?: Promise<DateSystem>;
  private readonly hostTimeoutMs: number;

  constructor(private readonly options: InputOptions) {
    this.hostTimeoutMs = options.hostTimeoutMs ?? 15_000;
  }

  fiscalYearStart(): number {
    return this.options.fiscalYearStart();
  }

  /** The company's calendar date, `YYYY-MM-DD`. */
  today(): string {
    return this.options.today();
  }

  /** Refresh all asks the host again (the user may have switched the workbook's date system). */
  forgetDateSystem(): void {
    this.dateSystemPromise = undefined;
  }

  async dateArg(input: unknown): Promise<DateArgument> {
    const result = parseDateArgument(input, {
      today: this.options.today(),
      // Text never needs the date system, so only serial numbers ask the host for it.
      dateSystem: typeof input === 'number' ? await this.dateSystem() : 1900,
      fiscalYearStartMonth: this.options.fiscalYearStart(),
    });
    if (!result.ok) throw finErrors.badDate(result.error);
    return result.value;
  }

  /** start (and optionally end) -> an inclusive range; an omitted end means the end of start's period. */
  async period(start: unknown, end: unknown): Promise<Period> {
    const first = await this.dateArg(start);
    const second = isMissing(end) ? undefined : await this.dateArg(end);
    const result = argumentsToPeriod(first, second);
    if (!result.ok) throw finErrors.badDate(result.error);
    return result.value;
  }

  private dateSystem(): Promise<DateSystem> {
    const source = this.options.dateSystem;
    if (typeof source !== 'function') return Promise.resolve(source);
    this.dateSystemPromise ??= (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        return await Promise.race([
          Promise.resolve().then(source),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('timed out')), this.hostTimeoutMs);
          }),
        ]);
      } catch (error) {
        this.dateSystemPromise = undefined;
        const why = error instanceof Error ? error.message : String(error);
        throw new FinError('na', `Could not read the workbook's date system (${why}); recalculate to try again`, 'host');
      } finally {
        clearTimeout(timer);
      }
    })();
    return this.dateSystemPromise;
  }
}
