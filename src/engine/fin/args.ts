// The small arguments of FIN functions: scale, status, row caps, free text. Dates are src/engine/dates' job.
// Each parser takes the raw value Excel hands over (number, string, boolean, null for an omitted optional
// argument) and returns the engine's value or throws a #VALUE! FinError that names the argument.

import type { Scale } from '../render/money';
import { finErrors } from './errors';

/** Excel gives null (or undefined) for an omitted optional argument; an empty text counts as omitted too. */
export function isMissing(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

const SCALES: Readonly<Record<string, Scale>> = {
  units: 'units',
  unit: 'units',
  '1': 'units',
  thousands: 'thousands',
  thousand: 'thousands',
  '1000': 'thousands',
  millions: 'millions',
  million: 'millions',
  '1000000': 'millions',
};

export function parseScale(value: unknown): Scale {
  if (isMissing(value)) return 'units';
  const key = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim().toLowerCase().replace(/[,_\s]/g, '') : '';
  const scale = Object.prototype.hasOwnProperty.call(SCALES, key) ? SCALES[key] : undefined;
  if (!scale) {
    throw finErrors.argument(`Bad scale ${JSON.stringify(value)}: use "units", "thousands" or "millions" (or 1, 1000, 1000000)`, 'bad_scale');
  }
  return scale;
}

export type StatusFilter = 'approved' | 'pending' | undefined;

export function parseStatus(value: unknown): StatusFilter {
  if (isMissing(value)) return undefined;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (text === 'approved' || text === 'pending') return text;
  if (text === 'all' || text === 'both') return undefined;
  throw finErrors.argument(`Bad status ${JSON.stringify(value)}: use "approved", "pending" or leave it empty for both`, 'bad_status');
}

export const DEFAULT_MAX_ROWS = 1000;
export const MAX_ROWS_LIMIT = 10_000;

export function parseMaxRows(value: unknown): number {
  if (isMissing(value)) return DEFAULT_MAX_ROWS;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_ROWS_LIMIT) {
    throw finErrors.argument(`Bad max_rows ${JSON.stringify(value)}: use a whole number from 1 to ${MAX_ROWS_LIMIT}`, 'bad_max_rows');
  }
  return n;
}

/** Optional free text sent as is (the merchant filter is exact and case-sensitive). */
export function optionalText(value: unknown, name: string): string | undefined {
  if (isMissing(value)) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw finErrors.argument(`Bad ${name} ${JSON.stringify(value)}: give text`, `bad_${name}`);
}
