// FIN.PERIOD(base, [offset], [kind]): period text keyed on a month, made locally (no call). The base is a month
// such as the reporting period's 2026-10, a date, or any period (its last month); the offset counts the
// kind's own steps (months for a month, a year to date and the trailing twelve months, quarters for a
// quarter, years for a fiscal year); the answer is text every FIN function reads (periodText.ts).

import { argumentEndDate, formatPeriodText, parseIsoDate, shiftMonth, type PeriodView } from '../dates';
import { isMissing } from './args';
import { finErrors } from './errors';
import type { FinInputs } from './inputs';

const KINDS: Readonly<Record<string, PeriodView>> = { month: 'month', quarter: 'quarter', fy: 'fy', ytd: 'ytd', ttm: 'ttm' };

/** Months one step of the offset moves, by kind. */
const STEP: Readonly<Record<PeriodView, number>> = { month: 1, quarter: 3, fy: 12, ytd: 1, ttm: 1 };

export function parsePeriodKind(value: unknown): PeriodView {
  if (isMissing(value)) return 'month';
  const key = typeof value === 'string' ? value.trim().toLowerCase() : '';
  const kind = Object.prototype.hasOwnProperty.call(KINDS, key) ? KINDS[key] : undefined;
  if (!kind) throw finErrors.argument(`Bad kind ${JSON.stringify(value)}: use "month", "quarter", "fy", "ytd" or "ttm"`, 'bad_kind');
  return kind;
}

export function parseOffset(value: unknown): number {
  if (isMissing(value)) return 0;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || Math.abs(n) > 12_000) {
    throw finErrors.argument(`Bad offset ${JSON.stringify(value)}: use a whole number such as -1 (the one before) or 12`, 'bad_offset');
  }
  return n;
}

/** The answer of FIN.PERIOD; throws a #VALUE! FinError for a bad argument, a Pending while a serial waits for the date system. */
export function periodText(inputs: FinInputs, args: { base: unknown; offset?: unknown; kind?: unknown }): string {
  if (isMissing(args.base)) throw finErrors.badDate('Missing base: give a month such as 2026-10 (or the reporting period, FIN_PERIOD)');
  const end = parseIsoDate(argumentEndDate(inputs.dateArg(args.base)))!;
  const kind = parsePeriodKind(args.kind);
  const month = shiftMonth({ year: end.year, month: end.month }, parseOffset(args.offset) * STEP[kind]);
  if (month.year < 1900 || month.year > 9999) throw finErrors.badDate(`Bad offset: the period would fall outside 1900-9999`);
  return formatPeriodText(month, kind, inputs.fiscalYearStart());
}
