import { isIsoDate } from '../calendar';
import type { Db } from '../db/open';
import { isPlainObject, rejectUnknownKeys } from '../http/body';
import { invalidRequest, resourceMissing } from '../http/errors';

// The definition of an automation rule (docs/api-decisions.md, "Rules"): conditions that all have to
// match a transaction, and the actions applied to it. Every invalid definition is 400 invalid_request
// whose message starts with the path of the offending value (conditions[0].value, actions.spread, ...).

export type TextOperator = 'equals' | 'contains' | 'starts_with';
export type AmountOperator = 'equals' | 'greater_than' | 'less_than';

export type Condition =
  | { field: 'merchant' | 'description'; operator: TextOperator; value: string }
  | { field: 'amount_cents'; operator: AmountOperator; value: number }
  | { field: 'amount_cents'; operator: 'between'; min: number; max: number }
  | { field: 'account_id' | 'card_id'; operator: 'equals'; value: string };

export interface Spread {
  start_date: string;
  end_date: string;
}

export interface Actions {
  merchant_name?: string;
  category_id?: string;
  department_id?: string;
  spread?: Spread;
}

export interface Definition {
  conditions: Condition[];
  actions: Actions;
}

const OPERATORS: Record<Condition['field'], readonly string[]> = {
  merchant: ['equals', 'contains', 'starts_with'],
  description: ['equals', 'contains', 'starts_with'],
  amount_cents: ['equals', 'greater_than', 'less_than', 'between'],
  account_id: ['equals'],
  card_id: ['equals'],
};
const FIELDS = Object.keys(OPERATORS) as Condition['field'][];
const ALL_OPERATORS = [...new Set(Object.values(OPERATORS).flat())];
/** Condition fields of old rules; existing rules may still carry them, new conditions may not. */
const LEGACY_FIELDS = ['account', 'card_name'];
export const ACTION_KEYS = ['merchant_name', 'category_id', 'department_id', 'spread'] as const;
const MAX_CONDITIONS = 20;
const MAX_TEXT = 200;
const MAX_ID = 100;

const bad = (path: string, message: string) => invalidRequest(`${path}: ${message}`, path);

function text(v: unknown, path: string): string {
  if (typeof v !== 'string' || v.trim() === '' || v.length > MAX_TEXT) {
    throw bad(path, `must be a non-blank string of at most ${MAX_TEXT} characters.`);
  }
  return v;
}

function cents(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw bad(path, 'must be an integer number of cents.');
  return v;
}

function id(v: unknown, path: string): string {
  if (typeof v !== 'string' || v === '' || v.length > MAX_ID) throw bad(path, 'must be an id string.');
  return v;
}

function conditionField(raw: Record<string, unknown>, path: string): Condition['field'] {
  const field = raw.field;
  if (field === undefined) throw bad(`${path}.field`, 'is required.');
  if (typeof field !== 'string') throw bad(`${path}.field`, 'must be a string.');
  if (LEGACY_FIELDS.includes(field)) {
    throw bad(`${path}.field`, `'${field}' is a legacy condition field and cannot be used in new conditions; use account_id or card_id.`);
  }
  if (!(FIELDS as string[]).includes(field)) throw bad(`${path}.field`, `must be one of: ${FIELDS.join(', ')}.`);
  return field as Condition['field'];
}

function conditionOperator(raw: Record<string, unknown>, field: Condition['field'], path: string): string {
  const op = raw.operator;
  if (op === undefined) throw bad(`${path}.operator`, 'is required.');
  if (typeof op !== 'string' || !ALL_OPERATORS.includes(op)) throw bad(`${path}.operator`, `must be one of: ${ALL_OPERATORS.join(', ')}.`);
  if (!OPERATORS[field].includes(op)) {
    throw bad(`${path}.operator`, `unsupported combination: operator '${op}' cannot be used with field '${field}' (allowed: ${OPERATORS[field].join(', ')}).`);
  }
  return op;
}

export function parseCondition(raw: unknown, path: string): Condition {
  if (!isPlainObject(raw)) throw bad(path, 'must be an object.');
  const field = conditionField(raw, path);
  const operator = conditionOperator(raw, field, path);
  if (operator === 'between') {
    rejectUnknownKeys(raw, ['field', 'operator', 'min', 'max'], `${path}.`);
    const min = cents(raw.min, `${path}.min`);
    const max = cents(raw.max, `${path}.max`);
    if (min > max) throw bad(`${path}.min`, `reversed between bounds: min (${min}) is greater than ${path}.max (${max}).`);
    return { field: 'amount_cents', operator: 'between', min, max };
  }
  rejectUnknownKeys(raw, ['field', 'operator', 'value'], `${path}.`);
  const valuePath = `${path}.value`;
  if (field === 'amount_cents') return { field, operator: operator as AmountOperator, value: cents(raw.value, valuePath) };
  if (field === 'account_id' || field === 'card_id') return { field, operator: 'equals', value: id(raw.value, valuePath) };
  return { field, operator: operator as TextOperator, value: text(raw.value, valuePath) };
}

export function parseConditions(raw: unknown): Condition[] {
  if (raw === undefined) throw bad('conditions', 'is required.');
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_CONDITIONS) {
    throw bad('conditions', `must be an array of 1 to ${MAX_CONDITIONS} conditions.`);
  }
  const conditions = raw.map((c, i) => parseCondition(c, `conditions[${i}]`));
  const seen = conditions.map(stableJson);
  seen.forEach((s, i) => {
    const first = seen.indexOf(s);
    if (first !== i) throw bad(`conditions[${i}]`, `duplicates conditions[${first}].`);
  });
  return conditions;
}

function parseSpread(raw: unknown, path: string): Spread {
  if (!isPlainObject(raw)) throw bad(path, 'must be an object with start_date and end_date.');
  rejectUnknownKeys(raw, ['start_date', 'end_date'], `${path}.`);
  for (const k of ['start_date', 'end_date']) {
    if (typeof raw[k] !== 'string' || !isIsoDate(raw[k] as string)) throw bad(`${path}.${k}`, 'must be a date in YYYY-MM-DD form.');
  }
  const spread = { start_date: raw.start_date as string, end_date: raw.end_date as string };
  if (spread.start_date > spread.end_date) throw bad(path, 'start_date must be on or before end_date.');
  return spread;
}

function parseAction(key: (typeof ACTION_KEYS)[number], v: unknown): Actions[typeof key] {
  const path = `actions.${key}`;
  if (key === 'merchant_name') return text(v, path);
  if (key === 'spread') return parseSpread(v, path);
  return id(v, path);
}

/**
 * The actions of a body. On create (`current` absent) every action needs a value; on update a null
 * removes that action from `current`. Either way at least one action has to remain.
 */
export function parseActions(raw: unknown, current?: Actions): Actions {
  if (raw === undefined) throw bad('actions', 'is required.');
  if (!isPlainObject(raw)) throw bad('actions', 'must be an object.');
  rejectUnknownKeys(raw, ACTION_KEYS, 'actions.');
  if (Object.keys(raw).length === 0) throw bad('actions', `must name at least one action (${ACTION_KEYS.join(', ')}).`);
  const actions: Record<string, unknown> = { ...current };
  for (const key of ACTION_KEYS) {
    if (!(key in raw)) continue;
    const v = raw[key];
    if (v === null) {
      if (!current) throw bad(`actions.${key}`, 'cannot be null when creating a rule; omit it instead.');
      delete actions[key];
    } else {
      actions[key] = parseAction(key, v);
    }
  }
  if (Object.keys(actions).length === 0) throw bad('actions', 'a rule needs at least one action; this would remove the last one.');
  return orderedActions(actions as Actions);
}

function orderedActions(a: Actions): Actions {
  const out: Record<string, unknown> = {};
  for (const k of ACTION_KEYS) if (a[k] !== undefined) out[k] = a[k];
  return out as Actions;
}

/** JSON with object keys sorted, so equal values give equal strings (the form stored in rules.definition). */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (isPlainObject(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Identity of a definition for duplicate detection: conditions are ANDed, so their order does not matter. */
export function definitionKey(def: { conditions: unknown[]; actions: unknown }): string {
  return stableJson({ conditions: def.conditions.map(stableJson).sort(), actions: def.actions });
}

interface RefRow {
  usable: number;
}

function lookup(db: Db, sql: string, companyId: string, refId: string): RefRow | undefined {
  return db.prepare(sql).get(refId, companyId) as RefRow | undefined;
}

/**
 * References must name records of the caller's company: missing or foreign is 404 with the path,
 * a category that cannot be assigned or a department that is not an assignable leaf is 400.
 */
export function checkReferences(db: Db, companyId: string, def: Definition): void {
  def.conditions.forEach((c, i) => {
    if (c.field !== 'account_id' && c.field !== 'card_id') return;
    const table = c.field === 'account_id' ? 'accounts' : 'cards';
    const path = `conditions[${i}].value`;
    if (!lookup(db, `SELECT 1 AS usable FROM ${table} WHERE id = ? AND company_id = ?`, companyId, c.value)) {
      throw resourceMissing(`${path}: no ${c.field === 'account_id' ? 'account' : 'card'} '${c.value}' in this company.`, path);
    }
  });
  const { category_id: cat, department_id: dept } = def.actions;
  if (cat !== undefined) {
    const row = lookup(db, 'SELECT selectable AS usable FROM categories WHERE id = ? AND company_id = ?', companyId, cat);
    if (!row) throw resourceMissing(`actions.category_id: no category '${cat}' in this company.`, 'actions.category_id');
    if (row.usable !== 1) throw bad('actions.category_id', `category '${cat}' cannot be assigned to transactions.`);
  }
  if (dept !== undefined) {
    const row = lookup(db, 'SELECT assignable AS usable FROM departments WHERE id = ? AND company_id = ?', companyId, dept);
    if (!row) throw resourceMissing(`actions.department_id: no department '${dept}' in this company.`, 'actions.department_id');
    if (row.usable !== 1) throw bad('actions.department_id', `department '${dept}' is not an assignable leaf department.`);
  }
}
