import { ApiError } from './errors';

// Reading what the spec leaves open by what it does guarantee. The spec names some fields and says
// "not shown" of others; the real API chose names and shapes there that our sandbox may not share. Each
// open point the add-in reads is read by a rule the spec fixes for the whole service:
//   - money: "every monetary field name ends in _cents; a field whose name does not end in _cents is not
//     monetary";
//   - ids: "identifier prefixes" (txn_, cat_, dept_, je_, grp_...);
//   - kinds: every resource object carries `object`;
//   - report sections: an object with `total_cents` and `categories`;
//   - dates: `YYYY-MM-DD`.
// Where no rule decides, the name docs/api-decisions.md chose is kept and required. An answer neither reads
// is refused by name (UnreadableAnswer), never passed on as `undefined`.

export type Json = Record<string, unknown>;

export const UNREADABLE_ANSWER = 'unreadable_answer';

/**
 * An answer the client cannot read: not the user's request, and not a passing failure. Nothing is written
 * from it, and asking again gets the same answer (the reader remembers it until the next refresh).
 */
export class UnreadableAnswer extends ApiError {
  override name = 'UnreadableAnswer';
  /** The endpoint, e.g. `/aggregations/total`. */
  readonly endpoint: string;
  /** What was looked for, e.g. `an amount ending in _cents`. */
  readonly expected: string;
  /** The field names the answer had where it was looked for. */
  readonly found: readonly string[];

  constructor(init: { method?: string; endpoint: string; expected: string; found: readonly string[]; what?: string; detail?: string }) {
    const fields = init.found.length > 0 ? init.found.join(', ') : 'none';
    super({
      message: init.detail ?? `The API's answer to ${init.endpoint} has ${init.what ? `a ${init.what} with ` : ''}no ${init.expected} (fields: ${fields})`,
      status: null,
      type: 'api_error',
      code: UNREADABLE_ANSWER,
      request: { method: init.method ?? 'GET', path: init.endpoint, query: '' },
    });
    this.endpoint = init.endpoint;
    this.expected = init.expected;
    this.found = [...init.found];
  }
}

export function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The field names of an object (a value that is not one has none). */
export function fieldsOf(value: unknown): string[] {
  return isRecord(value) ? Object.keys(value) : [];
}

const isCents = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** The monetary fields of an object: those whose name ends in _cents (the spec's rule), with whole cents. */
export function centsFields(record: Json): string[] {
  return Object.keys(record).filter((k) => k.endsWith('_cents') && isCents(record[k]));
}

/** How a value that should be whole cents was received, for a message: `null`, `"12"`, `0.5`, `an object`. */
export function described(value: unknown): string {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return value === undefined ? 'absent' : Array.isArray(value) ? 'a list' : 'an object';
}

/** Each `_cents` field of an object with what it holds, for a message: `debit_cents 100, net_cents null`. */
export function centsReceived(record: Json): string {
  const fields = Object.keys(record).filter((k) => k.endsWith('_cents'));
  return fields.length > 0 ? fields.map((k) => `${k} ${described(record[k])}`).join(', ') : 'none';
}

/** A net beside its two parts: the field named `net` (or `total`) that is the difference of the other two. */
function netOfParts(record: Json, fields: readonly string[]): string | undefined {
  if (fields.length !== 3) return undefined;
  const nets = fields.filter((k) => /(^|_)(net|total)_cents$/.test(k));
  if (nets.length !== 1) return undefined;
  const [a, b] = fields.filter((k) => k !== nets[0]).map((k) => record[k] as number);
  const net = record[nets[0]] as number;
  return net === a - b || net === b - a ? nets[0] : undefined;
}

/**
 * The amount of an object that carries one, or why none can be vouched for. The field `preferred`
 * (docs/api-decisions.md's choice) wins when it is there, and must then be whole cents: a `total_cents` that
 * is null, text, fractional or past 2^53 is refused, never replaced by another field. Without it: the only
 * `_cents` field, or a net beside its two parts (`net_cents` = `debit_cents` - `credit_cents`, either way);
 * any `_cents` field that is not whole cents makes the answer unreadable, as do several that no rule ranks.
 */
export function amountOf(record: Json, preferred: string): { amount: number } | { refused: string } {
  if (preferred in record) {
    const v = record[preferred];
    return isCents(v) ? { amount: v } : { refused: `${preferred} that is whole cents (received ${preferred} ${described(v)})` };
  }
  const money = Object.keys(record).filter((k) => k.endsWith('_cents'));
  const bad = money.filter((k) => !isCents(record[k]));
  if (bad.length > 0) return { refused: `amount ending in _cents that is whole cents (received ${centsReceived(record)})` };
  if (money.length === 1) return { amount: record[money[0]] as number };
  const net = netOfParts(record, money);
  if (net !== undefined) return { amount: record[net] as number };
  return {
    refused: money.length === 0 ? 'amount ending in _cents' : `single amount ending in _cents, ${preferred} or a net beside its parts (received ${centsReceived(record)})`,
  };
}

/** Ids of a kind are text starting with its prefix (`txn_`, `cat_`...). */
export function hasPrefix(value: unknown, prefix: string): value is string {
  return typeof value === 'string' && value.startsWith(prefix) && value.length > prefix.length;
}

/**
 * The value of the field that holds an id of `prefix`: the field `named` when the answer has it (null
 * included), else the one field whose value carries the prefix. undefined when several fields carry one;
 * null when none does (an entry with no such id, or whose field is null).
 */
export function idByPrefix(record: Json, named: string, prefix: string): string | null | undefined {
  if (named in record) {
    const v = record[named];
    return hasPrefix(v, prefix) ? v : null;
  }
  const values = new Set(Object.values(record).filter((v): v is string => hasPrefix(v, prefix)));
  if (values.size > 1) return undefined;
  return values.size === 1 ? [...values][0] : null;
}

export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The date of an object: the field `named`, else its only field holding a `YYYY-MM-DD` date. */
export function soleDate(record: Json, named: string): string | undefined {
  const v = record[named];
  if (typeof v === 'string' && ISO_DATE.test(v)) return v;
  const dates = Object.keys(record).filter((k) => typeof record[k] === 'string' && ISO_DATE.test(record[k] as string));
  return dates.length === 1 ? (record[dates[0]] as string) : undefined;
}

/** A report section by the spec's shape: an object with whole-cents `total_cents` and a `categories` array. */
export function isSection(value: unknown): boolean {
  return isRecord(value) && isCents(value.total_cents) && Array.isArray(value.categories);
}

/** The fields of a report that hold sections, in the answer's order. */
export function sectionFields(report: Json): string[] {
  return Object.keys(report).filter((k) => isSection(report[k]));
}

/**
 * The list of an object: the field `named` when it is an array, else its only field holding an array of
 * objects. undefined when neither decides.
 */
export function soleList(record: Json, named: string): Json[] | undefined {
  if (Array.isArray(record[named])) return record[named] as Json[];
  const lists = Object.keys(record).filter((k) => Array.isArray(record[k]) && (record[k] as unknown[]).every(isRecord));
  return lists.length === 1 ? (record[lists[0]] as Json[]) : undefined;
}

/** The text of an object: the field `named`, else its only text field besides `object`. */
export function soleText(record: Json, named: string): string | undefined {
  const v = record[named];
  if (typeof v === 'string') return v;
  // The named field that is there but not text is not absent: another field is not read in its place.
  if (named in record) return undefined;
  const texts = Object.keys(record).filter((k) => k !== 'object' && typeof record[k] === 'string');
  return texts.length === 1 ? (record[texts[0]] as string) : undefined;
}
