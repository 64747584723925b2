import { fieldsOf, isRecord, isSection, UnreadableAnswer, type Json } from './answerShape';
import { unplacedAmounts } from './placedAmounts';
import { checkText, REPORT_TEXT } from './textFields';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { BalanceSheet, CashFlow, IncomeStatement, ReportDateParams, ReportPeriodParams } from './types';

// The three statements. Each call returns the full statement for one date or period; there is no
// section filter, so a sheet showing several periods costs one call per period.

const CASH_FLOW = '/reports/cash_flow';

/** Where a cash flow section goes, by the activity its name says; the spec names only operating_activities. */
const CASH_FLOW_SLOTS: readonly { slot: 'operating_activities' | 'investing_activities' | 'financing_activities'; word: RegExp }[] = [
  { slot: 'operating_activities', word: /operat/i },
  { slot: 'investing_activities', word: /invest/i },
  { slot: 'financing_activities', word: /financ/i },
];

/** The cash flow's own amounts the add-in shows (or checks) outside its sections. */
const CASH_FLOW_AMOUNTS = ['change_in_cash_cents', 'net_income_cents', 'beginning_cash_cents', 'ending_cash_cents'];

function refuseCashFlow(expected: string, found: unknown, detail?: string): never {
  throw new UnreadableAnswer({ endpoint: CASH_FLOW, expected, found: fieldsOf(found), detail });
}

const cents = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** A section's label inside a list: its only text field besides `object`. */
const labelOf = (item: Json): string | undefined => {
  const texts = Object.keys(item).filter((k) => k !== 'object' && typeof item[k] === 'string');
  return texts.length === 1 ? (item[texts[0]] as string) : undefined;
};

/**
 * The sections of a cash flow by name: those at its top, and those of a container (a field holding an
 * object of sections, or a list of sections each labelled by its one text field), the container's path
 * prefixed (`activities.investing`).
 */
function sectionsOf(raw: Json): Map<string, Json> {
  const found = new Map<string, Json>();
  for (const [key, value] of Object.entries(raw)) {
    if (isSection(value)) found.set(key, value as Json);
    else if (isRecord(value)) {
      for (const [inner, v] of Object.entries(value)) if (isSection(v)) found.set(`${key}.${inner}`, v as Json);
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => {
        if (isSection(v)) found.set(`${key}[${labelOf(v as Json) ?? i}]`, v as Json);
      });
    }
  }
  return found;
}

/**
 * A cash flow as the add-in reads it. "The complete field list of the cash flow report: not shown": its
 * sections are found by the spec's shape (an object with total_cents and categories), at the top or in a
 * container, and placed by the activity their name says (operating_activities is the documented name). Every
 * amount in the answer, at any depth, must be placed in what the user sees (a section, its lines, or the
 * change, net income, beginning or ending cash); one that is not is refused by its path, so nothing goes
 * missing unseen, not even an activity that nets to zero. The sections must also add up to
 * change_in_cash_cents. Beginning and ending cash are read under the names docs/api-decisions.md chose, and
 * checked against the change; where the API gives neither they stay absent (the engine takes them from the
 * balance sheets, and says so).
 */
export function readCashFlow(body: unknown): CashFlow {
  const raw: Json = isRecord(body) ? body : {};
  if (!cents(raw.change_in_cash_cents)) refuseCashFlow('change_in_cash_cents', raw);
  const found = sectionsOf(raw);
  const out: Json = {};
  const holders = new Set([...found.keys()].map((key) => key.split(/[.[]/)[0]));
  for (const [key, value] of Object.entries(raw)) if (!holders.has(key)) out[key] = value;
  for (const [key, section] of found) {
    const slot = CASH_FLOW_SLOTS.find((s) => s.word.test(key))?.slot;
    if (!slot || out[slot] !== undefined) {
      refuseCashFlow('', raw, `The API's cash flow has a section "${key}" this add-in cannot place among operating, investing and financing activities (sections: ${[...found.keys()].join(', ')})`);
    }
    out[slot] = section;
  }
  if (out.operating_activities === undefined) refuseCashFlow('operating_activities section (total_cents and categories)', raw);
  const unplaced = unplacedAmounts(raw, { figures: CASH_FLOW_AMOUNTS, sections: found, entry: 'amount_cents' });
  if (unplaced.length > 0) {
    refuseCashFlow('', raw, `The API's cash flow has amounts this add-in cannot place in the statement (${unplaced.join(', ')}; fields: ${fieldsOf(raw).join(', ')}): nothing was shown from it, so none of it goes missing unseen`);
  }
  const total = [...found.values()].reduce((sum, section) => sum + (section.total_cents as number), 0);
  if (total !== raw.change_in_cash_cents) {
    refuseCashFlow('', raw, `The API's cash flow sections (${[...found.keys()].join(', ')}) add up to ${total} cents, not its change in cash of ${raw.change_in_cash_cents} cents: some activity is not in a section this add-in reads`);
  }
  const begin = raw.beginning_cash_cents;
  const end = raw.ending_cash_cents;
  if (begin !== undefined || end !== undefined) {
    if (!cents(begin) || !cents(end) || begin + raw.change_in_cash_cents !== end) {
      refuseCashFlow('', raw, `The API's cash flow gives beginning cash ${String(begin)} and ending cash ${String(end)} cents, which do not differ by its change in cash of ${raw.change_in_cash_cents} cents`);
    }
  }
  // The fields as the API sent them, for messages about a figure it lacks (out renames the sections).
  out.received_fields = fieldsOf(raw);
  return checkText(out as unknown as CashFlow, REPORT_TEXT, 'GET', CASH_FLOW);
}

/** The statements besides the cash flow: their sections and figures (the spec's, and docs/api-decisions.md's). */
const STATEMENTS = {
  '/reports/income_statement': {
    what: 'income statement',
    sections: ['revenue', 'uncategorized_income', 'expenses', 'uncategorized_expenses', 'non_operating_income', 'taxes'],
    figures: ['operating_income_cents', 'net_income_cents'],
    entry: 'amount_cents',
  },
  '/reports/balance_sheet': {
    what: 'balance sheet',
    sections: ['assets', 'liabilities', 'equity'],
    figures: ['cash_cents', 'liabilities_and_equity_cents', ...['beginning_balance_cents', 'net_income_cents', 'ending_balance_cents'].map((k) => `equity.retained_earnings.${k}`)],
    entry: 'balance_cents',
  },
} as const;

/**
 * An income statement or balance sheet whose every amount the add-in places: each in a section it shows, or
 * one of the figures it shows; any other is refused by its path (nothing goes missing unseen).
 */
export function readStatement<T>(path: keyof typeof STATEMENTS, body: unknown): T {
  const raw: Json = isRecord(body) ? body : {};
  const known = STATEMENTS[path];
  const sections = new Map(known.sections.filter((k) => isSection(raw[k])).map((k) => [k, raw[k] as Json]));
  const unplaced = unplacedAmounts(raw, { figures: known.figures, sections, entry: known.entry });
  if (unplaced.length > 0) {
    throw new UnreadableAnswer({
      endpoint: path,
      expected: '',
      found: fieldsOf(raw),
      detail: `The API's ${known.what} has amounts this add-in cannot place in the statement (${unplaced.join(', ')}; fields: ${fieldsOf(raw).join(', ')}): nothing was shown from it, so none of it goes missing unseen`,
    });
  }
  return checkText(raw as unknown as T, REPORT_TEXT, 'GET', path);
}

export function reportsApi(transport: Transport) {
  return {
    /** GET /reports/balance_sheet (default date: today in the company's zone). */
    balanceSheet: async (params: ReportDateParams = {}, opts?: CallOptions): Promise<BalanceSheet> =>
      readStatement<BalanceSheet>('/reports/balance_sheet', (await transport.request<unknown>({ method: 'GET', path: '/reports/balance_sheet', query: { ...params }, ...callOptions(opts) })).body),

    /** GET /reports/income_statement (default: current quarter start to today). */
    incomeStatement: async (params: ReportPeriodParams = {}, opts?: CallOptions): Promise<IncomeStatement> =>
      readStatement<IncomeStatement>('/reports/income_statement', (await transport.request<unknown>({ method: 'GET', path: '/reports/income_statement', query: { ...params }, ...callOptions(opts) })).body),

    /** GET /reports/cash_flow, read by readCashFlow. */
    cashFlow: async (params: ReportPeriodParams = {}, opts?: CallOptions): Promise<CashFlow> =>
      readCashFlow((await transport.request<unknown>({ method: 'GET', path: CASH_FLOW, query: { ...params }, ...callOptions(opts) })).body),
  };
}
