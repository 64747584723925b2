// A FIN formula's date arguments as the engine needs them: read against the company's today, its fiscal
// year and the workbook's date system (asked of the host only when a serial number needs it).
//
// A model repeats the same few date arguments across thousands of cells, so each one is read once: the
// readings are kept for as long as today, the fiscal year and the date system they depend on stay the same.
// Reading is synchronous, part of an evaluation's attempt (pending.ts): a serial number before the host has
// said its date system makes the attempt wait for the answer.

import { argumentsToPeriod, parseDateArgument, type DateArgument, type DateSystem, type Period } from '../dates';
import type { Result } from '../result';
import { isMissing } from './args';
import { FinError, finErrors } from './errors';
import { Pending } from './pending';

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

/** Readings kept at most (a model has a few hundred distinct date arguments; this bounds a pathological one). */
const MAX_READINGS = 20_000;

export class FinInputs {
  private dateSystemPromise?: Promise<DateSystem>;
  /** The date system once the host said it (until Refresh all asks again). */
  private knownSystem?: DateSystem;
  /** Bumped by forgetDateSystem: an answer to an earlier question is not kept as the known one. */
  private systemQuestion = 0;
  private readonly hostTimeoutMs: number;
  /** Readings of text arguments ('s' + text) and of serials in a date system ('1900:' + n). */
  private readonly readings = new Map<string, Result<DateArgument>>();
  /** What the readings were made against. */
  private readingsToday = '';
  private readingsFiscalStart = 0;

  constructor(private readonly options: InputOptions) {
    this.hostTimeoutMs = options.hostTimeoutMs ?? 15_000;
    if (typeof options.dateSystem !== 'function') this.knownSystem = options.dateSystem;
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
    this.systemQuestion += 1;
    if (typeof this.options.dateSystem === 'function') this.knownSystem = undefined;
  }

  /** One date argument; throws a Pending while a serial number waits for the workbook's date system. */
  dateArg(input: unknown): DateArgument {
    // Text never needs the date system, so only serial numbers ask the host for it.
    let system: DateSystem = 1900;
    if (typeof input === 'number') {
      if (this.knownSystem === undefined) throw new Pending(this.dateSystem());
      system = this.knownSystem;
    }
    const result = this.reading(input, system);
    if (!result.ok) throw finErrors.badDate(result.error);
    return result.value;
  }

  /** parseDateArgument's answer, read once per argument while today and the fiscal year stay the same. */
  private reading(input: unknown, dateSystem: DateSystem): Result<DateArgument> {
    const today = this.options.today();
    const fiscalYearStartMonth = this.options.fiscalYearStart();
    const key = typeof input === 'string' ? `s${input}` : typeof input === 'number' ? `${dateSystem}:${input}` : undefined;
    if (key === undefined) return parseDateArgument(input, { today, dateSystem, fiscalYearStartMonth });
    if (today !== this.readingsToday || fiscalYearStartMonth !== this.readingsFiscalStart || this.readings.size >= MAX_READINGS) {
      this.readings.clear();
      this.readingsToday = today;
      this.readingsFiscalStart = fiscalYearStartMonth;
    }
    let result = this.readings.get(key);
    if (!result) {
      result = parseDateArgument(input, { today, dateSystem, fiscalYearStartMonth });
      this.readings.set(key, result);
    }
    return result;
  }

  /** start (and optionally end) -> an inclusive range; an omitted end means the end of start's period. */
  period(start: unknown, end: unknown): Period {
    const first = this.dateArg(start);
    const second = isMissing(end) ? undefined : this.dateArg(end);
    const result = argumentsToPeriod(first, second);
    if (!result.ok) throw finErrors.badDate(result.error);
    return result.value;
  }

  private dateSystem(): Promise<DateSystem> {
    const source = this.options.dateSystem;
    if (typeof source !== 'function') return Promise.resolve(source);
    this.dateSystemPromise ??= (async () => {
      const question = this.systemQuestion;
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const system = await Promise.race([
          Promise.resolve().then(source),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('timed out')), this.hostTimeoutMs);
          }),
        ]);
        if (question === this.systemQuestion) this.knownSystem = system;
        return system;
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
