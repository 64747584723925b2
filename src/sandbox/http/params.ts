import type { FastifyRequest } from 'fastify';
import { isIsoDate } from '../calendar';
import { invalidDate, invalidRequest } from './errors';

// Query-string readers. A parameter given twice arrives as an array and is rejected: the API takes one
// value per parameter.

type Query = Record<string, string | string[] | undefined>;

export function queryOf(req: FastifyRequest): Query {
  return (req.query ?? {}) as Query;
}

export function optString(q: Query, name: string): string | undefined {
  const v = q[name];
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw invalidRequest(`Parameter ${name} was given more than once.`, name);
  return v;
}

export function optInt(q: Query, name: string, min: number, max: number): number | undefined {
  const v = optString(q, name);
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v)) throw invalidRequest(`${name} must be an integer from ${min} to ${max}.`, name);
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw invalidRequest(`${name} must be an integer from ${min} to ${max}.`, name);
  }
  return n;
}

export function optBool(q: Query, name: string): boolean | undefined {
  const v = optString(q, name);
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw invalidRequest(`${name} must be true or false.`, name);
}

export function optEnum<T extends string>(q: Query, name: string, allowed: readonly T[], caseInsensitive = false): T | undefined {
  const v = optString(q, name);
  if (v === undefined) return undefined;
  const probe = caseInsensitive ? v.toLowerCase() : v;
  const hit = allowed.find((a) => a === probe);
  if (!hit) throw invalidRequest(`${name} must be one of: ${allowed.join(', ')}.`, name);
  return hit;
}

const DATETIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))$/;

/**
 * Strict ISO 8601 date or datetime (with Z or an offset) -> the calendar date it names (the date part as
 * written; an offset does not move it to another day). Anything else -> invalid_date.
 */
export function parseStrictDate(value: string, param: string): string {
  if (isIsoDate(value)) return value;
  const m = DATETIME.exec(value);
  if (m && isIsoDate(m[1])) {
    const [h, mi, s] = [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)];
    const offsetOk = m[5] === 'Z' || (Number(m[6]) <= 23 && Number(m[7]) <= 59);
    if (h <= 23 && mi <= 59 && s <= 59 && offsetOk) return m[1];
  }
  throw invalidDate(param, value);
}

/** A report date parameter: absent or blank -> undefined (the caller applies the default). */
export function optReportDate(q: Query, name: string): string | undefined {
  const v = optString(q, name);
  if (v === undefined || v.trim() === '') return undefined;
  return parseStrictDate(v, name);
}

/** A filter date parameter (YYYY-MM-DD only); bad values are invalid_request. */
export function optFilterDate(q: Query, name: string): string | undefined {
  const v = optString(q, name);
  if (v === undefined) return undefined;
  if (!isIsoDate(v)) throw invalidRequest(`${name} must be a date in YYYY-MM-DD form.`, name);
  return v;
}
