import { fieldsOf, isRecord, sectionFields, UnreadableAnswer, type Json } from './answerShape';
import { checkText, REPORT_TEXT } from './textFields';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { BalanceSheet, CashFlow, IncomeStatement, ReportDateParams, ReportPeriodParams } from './types';

// The three statements. Each call returns the full statement for one date or period; there is no
// section filter, so a sheet showing several periods costs one call per period.

const CASH_FLOW = '/reports/cash_flow';

/** Where a cash flow section goes, by the activity its name says; the spec names only operating_activities. */
const CASH_FLOW_SLOTS: readonly { slot: 'investing_activities' | 'financing_activities'; word: RegExp }[] = [
  { slot: 'investing_activities', word: /invest/i },
  { slot: 'financing_activities', word: /financ/i },
];

function refuseCashFlow(expected: string, found: unknown, detail?: string): never {
  throw new UnreadableAnswer({ endpoint: CASH_FLOW, expected, found: fieldsOf(found), detail });
}

const cents = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * A cash flow as the add-in reads it. "The complete field list of the cash flow report: not shown": its
 * sections are found by the spec's shape (an object with total_cents and categories), operating_activities
 * by its documented name and the others by the activity their name says; a section no activity names is
 * refused rather than dropped. The sections must add up to change_in_cash_cents, so no activity is lost
 * unseen. Beginning and ending cash are read under the names docs/api-decisions.md chose, and checked
 * against the change; where the API gives neither they stay absent (the engine takes them from the balance
 * sheets, and says so).
 */
export function readCashFlow(body: unknown): CashFlow {
  const raw: Json = isRecord(body) ? body : {};
  const out: Json = {};
  for (const [key, value] of Object.entries(raw)) if (!key.endsWith('_activities') || key === 'operating_activities') out[key] = value;
  if (!cents(raw.change_in_cash_cents)) refuseCashFlow('change_in_cash_cents', raw);
  const sections = sectionFields(raw);
  if (!sections.includes('operating_activities')) refuseCashFlow('operating_activities section (total_cents and categories)', raw);
  for (const key of sections) {
    if (key === 'operating_activities') continue;
    const slot = CASH_FLOW_SLOTS.find((s) => s.word.test(key))?.slot;
    if (!slot || out[slot] !== undefined) {
      refuseCashFlow('', raw, `The API's cash flow has a section "${key}" this add-in cannot place among operating, investing and financing activities (sections: ${sections.join(', ')})`);
    }
    if (key !== slot) delete out[key];
    out[slot] = raw[key];
  }
  const total = sections.reduce((sum, key) => sum + ((raw[key] as { total_cents: number }).total_cents), 0);
  if (total !== raw.change_in_cash_cents) {
    refuseCashFlow('', raw, `The API's cash flow sections (${sections.join(', ')}) add up to ${total} cents, not its change in cash of ${raw.change_in_cash_cents} cents: some activity is not in a section this add-in reads`);
  }
  const begin = raw.beginning_cash_cents;
  const end = raw.ending_cash_cents;
  if (begin !== undefined || end !== undefined) {
    if (!cents(begin) || !cents(end) || begin + raw.change_in_cash_cents !== end) {
      refuseCashFlow('', raw, `The API's cash flow gives beginning cash ${String(begin)} and ending cash ${String(end)} cents, which do not differ by its change in cash of ${raw.change_in_cash_cents} cents`);
    }
  }
  return checkText(out as unknown as CashFlow, REPORT_TEXT, 'GET', CASH_FLOW);
}

export function reportsApi(transport: Transport) {
  return {
    /** GET /reports/balance_sheet (default date: today in the company's zone). */
    balanceSheet: async (params: ReportDateParams = {}, opts?: CallOptions): Promise<BalanceSheet> =>
      checkText((await transport.request<BalanceSheet>({ method: 'GET', path: '/reports/balance_sheet', query: { ...params }, ...callOptions(opts) })).body, REPORT_TEXT, 'GET', '/reports/balance_sheet'),

    /** GET /reports/income_statement (default: current quarter start to today). */
    incomeStatement: async (params: ReportPeriodParams = {}, opts?: CallOptions): Promise<IncomeStatement> =>
      checkText(
        (await transport.request<IncomeStatement>({ method: 'GET', path: '/reports/income_statement', query: { ...params }, ...callOptions(opts) })).body,
        REPORT_TEXT,
        'GET',
        '/reports/income_statement',
      ),

    /** GET /reports/cash_flow, read by readCashFlow. */
    cashFlow: async (params: ReportPeriodParams = {}, opts?: CallOptions): Promise<CashFlow> =>
      readCashFlow((await transport.request<unknown>({ method: 'GET', path: CASH_FLOW, query: { ...params }, ...callOptions(opts) })).body),
  };
}
