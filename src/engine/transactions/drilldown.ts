// Drill-down: the entries behind a statement line or a FIN total, on a new sheet.
//
// Source: GET /journal_entries, not GET /transactions. Statements and /aggregations/total are built
// from the ledger, and only journal entries reproduce them:
//  - /journal_entries?category_id matches the category AND its descendants (a statement line is a
//    subtree subtotal); /transactions?category_id matches that one category only (the sandbox filters
//    `t.category_id = ?`), so a parent line would show nothing or a fraction;
//  - journal entries are dated by the effective accounting date, which reports use; the /transactions
//    date filter is on the transaction date;
//  - pending transactions post nothing, split parts post per part, transfers post between accounts,
//    spreads post monthly, and depreciation / accruals / opening entries have no transaction at all.
// So the sheet lists every journal line of the subtree in the period, with its transaction id (when it
// came from one) and memo (the merchant), and its signed amount sums to the number drilled into
// (/aggregations/total's sign rule: assets debit minus credit, all other categories credit minus debit),
// which a Total row under the table shows.
// For a point-in-time (balance-sheet) category the sheet lists the period's activity (the change in the
// balance), not the entries since the beginning of time.

import type { JournalEntry, Category } from '../../api';
import { centsToDisplay } from '../render/money';
import { isIsoDate } from '../dates';
import { cellA1, parseQualified } from '../ports/address';
import type { GridWrite, TableColumnSpec, WriteValue } from '../ports/workbook';
import { isoToCell, DATE_FORMAT, AMOUNT_FORMAT } from './columns';
import { callsSince, meterSnapshot, type Deps, type MeterSnapshot, type ProgressFn } from './context';
import { formulaCompany, formulaTarget, parseFinFormula, SELECT_A_NUMBER, statementCellTarget, type CellTarget } from './drillTarget';
import { Refusal } from '../refusal';
import { DepartmentDirectory, departmentRefs } from './departments';
import { buildTree, subtreeIds } from '../tree';
import { pluralGrouped } from '../text/plural';
import { checkEntryDate, checkLinesAddUp, explainedFigure } from './drillCheck';

export interface DrillDownRequest {
  categoryId: string;
  /** Inclusive, YYYY-MM-DD. */
  start: string;
  end: string;
  sheetName?: string;
}

export interface DrillDownResult {
  sheet: string;
  table: string;
  categoryName: string;
  pointInTime: boolean;
  /** Journal lines listed (lines of the category's subtree). */
  rows: number;
  entries: number;
  /** Signed by the aggregation rule; equals /aggregations/total for whole months. */
  totalCents: number;
  note: string;
  calls: number | null;
}

export const DRILLDOWN_COLUMNS: TableColumnSpec[] = [
  { name: 'Date', kind: 'number', numberFormat: DATE_FORMAT, width: 70 },
  { name: 'Kind', kind: 'text', width: 70 },
  { name: 'Memo', kind: 'text', width: 180 },
  { name: 'Category', kind: 'text', width: 160 },
  { name: 'Department', kind: 'text', width: 240 },
  { name: 'Debit', kind: 'number', numberFormat: AMOUNT_FORMAT, width: 80 },
  { name: 'Credit', kind: 'number', numberFormat: AMOUNT_FORMAT, width: 80 },
  { name: 'Amount', kind: 'number', numberFormat: AMOUNT_FORMAT, width: 90 },
  { name: 'Transaction id', kind: 'text', width: 150 },
  { name: 'Journal entry id', kind: 'text', width: 150 },
];

/** Assets: debit minus credit; every other account type: credit minus debit. */
export function signedCents(accountType: string, debit: number, credit: number): number {
  return accountType === 'asset' ? debit - credit : credit - debit;
}

const TOTAL_COLUMNS = ['Debit', 'Credit', 'Amount'] as const;

/**
 * The Total row: debits, credits and the signed amount summed in cents, then converted once. It sits one
 * row below the table, outside it, so the table's rows stay journal lines only and sorting or filtering
 * the table never moves it.
 */
export function totalRow(lines: number, cents: Record<(typeof TOTAL_COLUMNS)[number], number>): GridWrite {
  const values: WriteValue[] = DRILLDOWN_COLUMNS.map(() => null);
  const formats: (string | null)[] = DRILLDOWN_COLUMNS.map(() => null);
  values[0] = `Total (${pluralGrouped(lines, 'line')})`;
  for (const name of TOTAL_COLUMNS) {
    const c = DRILLDOWN_COLUMNS.findIndex((col) => col.name === name);
    values[c] = centsToDisplay(cents[name], 'units');
    formats[c] = AMOUNT_FORMAT;
  }
  return { values: [values], cellFormats: [formats], boldRows: [0] };
}

export async function drillDown(
  deps: Deps,
  req: DrillDownRequest,
  onProgress?: ProgressFn,
  /** From drillDownFromSelection: the category list it already read, and its meter reading. */
  prefetched?: { categories?: Category[]; snap?: MeterSnapshot },
): Promise<DrillDownResult> {
  if (!/^cat_[A-Za-z0-9_]+$/.test(req.categoryId)) throw new Error('Drill-down needs a category id (cat_...).');
  if (!isIsoDate(req.start) || !isIsoDate(req.end)) throw new Error('Drill-down needs a period with dates like 2026-01-31.');
  if (req.start > req.end) throw new Error('The period starts after it ends.');
  const snap = prefetched?.snap ?? (await meterSnapshot(deps.client));
  onProgress?.({ phase: 'reference', message: 'Reading the chart of accounts and departments…' });
  const [categories, departments] = await Promise.all([
    prefetched?.categories ? { data: prefetched.categories } : deps.spend('/categories', (o) => deps.client.categories.list(o)),
    deps.spend('/departments', (o) => deps.client.departments.list(o)),
  ]);
  const chart = buildTree(categories.data, 'category');
  const node = chart.byId.get(req.categoryId);
  if (!node) throw new Error(`No category ${req.categoryId} in this company.`);
  const root = node.item;
  const inTree = new Set(subtreeIds(node));
  const dir = new DepartmentDirectory(departmentRefs(departments.data));
  const system = await deps.gateway.getDateSystem();

  const rows: WriteValue[][] = [];
  let entries = 0;
  let totalCents = 0;
  let debitCents = 0;
  let creditCents = 0;
  let signedLines = false;
  const unnamed = new Set<string>();
  let departmentsUnread = 0;
  await deps.spend(
    '/journal_entries',
    async (o) => {
      for await (const entry of deps.client.journalEntries.iterate({ category_id: root.id, start_date: req.start, end_date: req.end }, o) as AsyncIterable<JournalEntry>) {
        // Stops the walk at the first entry outside the period: no more pages are asked for.
        checkEntryDate(entry, req.start, req.end);
        entries++;
        for (const label of entry.unnamed ?? []) unnamed.add(label);
        for (const line of entry.lines) {
            if (!inTree.has(line.category_id)) continue;
            if (line.signed) signedLines = true;
            if (line.department_unread) departmentsUnread++;
            const cents = signedCents(root.account_type, line.debit_cents, line.credit_cents);
            totalCents += cents;
            debitCents += line.debit_cents;
            creditCents += line.credit_cents;
            rows.push([
              isoToCell(entry.date, system),
              entry.kind,
              entry.memo,
              chart.byId.get(line.category_id)?.name ?? line.category_id,
              line.department_id ? (dir.pathOf(line.department_id) ?? line.department_id) : null,
              line.debit_cents ? centsToDisplay(line.debit_cents, 'units') : null,
              line.credit_cents ? centsToDisplay(line.credit_cents, 'units') : null,
              centsToDisplay(cents, 'units'),
              entry.transaction_id,
              entry.id,
            ]);
        }
        if (entries % 500 === 0) onProgress?.({ phase: 'fetching', message: `${entries.toLocaleString('en-US')} entries so far`, rows: rows.length, pages: entries / 500 });
      }
    },
    'run',
  );

  onProgress?.({ phase: 'checking', message: 'Checking that the lines add up to the statement…' });
  checkLinesAddUp(totalCents, await explainedFigure(deps, root, req.start, req.end), root, signedLines);

  onProgress?.({ phase: 'writing', message: `Writing ${rows.length} lines…` });
  const ref = await deps.gateway.createTable({
    name: 'DrillDown',
    columns: DRILLDOWN_COLUMNS,
    rows,
    target: { kind: 'newSheet', name: req.sheetName ?? `${root.name} ${req.start.slice(0, 7)}`.slice(0, 31) },
    style: 'TableStyleLight1',
  });
  const { sheet, box } = parseQualified(ref.address);
  await deps.gateway.writeGrid(
    { kind: 'anchor', sheet, cell: cellA1(box.row + box.rows + 1, box.col) },
    totalRow(rows.length, { Debit: debitCents, Credit: creditCents, Amount: totalCents }),
  );
  await deps.gateway.saveBinding({
    id: `drilldown-${ref.name}`,
    kind: 'drilldown',
    parameters: { category_id: root.id, start_date: req.start, end_date: req.end, source: 'journal_entries' },
    company: await deps.companyId(),
    refreshedAt: new Date(deps.now()).toISOString(),
    address: ref.address,
    table: ref.name,
  });
  const labels = [...unnamed].sort();
  const noLabels = labels.length
    ? ` The API's journal entries carry no ${labels.join(' or ')} under ${labels.length === 1 ? 'that name' : 'those names'}: ${labels.map((l) => (l === 'kind' ? 'Kind' : 'Memo')).join(' and ')} ${labels.length === 1 ? 'is' : 'are'} left empty.`
    : '';
  // A blank Department column is said, never left to read as "no department".
  const noDepartments = departmentsUnread
    ? ` The API's journal lines carry their department in a form this add-in does not read (${departmentsUnread} of ${rows.length} lines): their Department is left empty, which does not mean none.`
    : '';
  const note =
    (root.point_in_time
      ? `${root.name} is a balance-sheet category: these are its entries in the period (the change in its balance), not the balance itself; they add up to that change.`
      : `Journal lines of ${root.name} and its subcategories dated ${req.start} to ${req.end}; they add up to the statement line for the same dates (checked).`) + noLabels + noDepartments;
  return {
    sheet: ref.sheet,
    table: ref.name,
    categoryName: root.name,
    pointInTime: root.point_in_time,
    rows: rows.length,
    entries,
    totalCents,
    note,
    calls: await callsSince(deps.client, snap),
  };
}

export interface CellDrillOptions {
  /** The company's calendar date (YTD and TTM in a formula). */
  today: string;
  /** The company id a formula's company argument names (a connection's name or a company id), if known here. */
  companyOf?: (argument: string) => string | null;
  /** 1-12, default 1: fiscal years of YTD, FY and of a balance drilled into. */
  fiscalYearStartMonth?: number;
  /** A company's own fiscal year start, where it is connected here (a cell of another company is its). */
  fiscalYearOf?: (companyId: string) => number | undefined;
  onProgress?: ProgressFn;
}

export interface CellDrillResult extends DrillDownResult {
  /** What was drilled into: the category, the period and where they were read. */
  target: CellTarget;
}

/** A cell of another company than the engine's: `companyId` says whose (the name as written when unknown here). */
export class OtherCompanyCell extends Refusal {
  constructor(
    readonly shown: string,
    readonly companyId: string,
    own: string,
  ) {
    super(
      'This cell is of another company',
      `This cell reads ${shown}, which is not connected on this computer (drill-down read nothing of ${own} for it). Connect ${shown} under Connection, then try again; nothing was sent.`,
      'other_company',
    );
  }
}

/**
 * Drill-down reads the entries of this engine's company: a cell of another company's block or formula is
 * refused before any call, rather than answered with the wrong company's entries (byCompany.ts routes it to
 * that company's engine where it is connected).
 */
async function refuseOtherCompany(deps: Deps, shown: string, companyId: string): Promise<void> {
  const own = await deps.companyId();
  if (companyId !== own) throw new OtherCompanyCell(shown, companyId, own);
}

/**
 * "Show what's behind this cell": the top-left selected cell is a number of a statement block (its
 * binding says the row's category and the column's period; no call to find them), or a FIN.TOTAL /
 * FIN.PNL / FIN.BALANCE formula with literal arguments (its category is resolved against the category
 * list, which the drill-down reuses: no extra call). Anything else fails with what to select.
 */
export async function drillDownFromSelection(deps: Deps, given: CellDrillOptions): Promise<CellDrillResult> {
  const [selection, bindings, company] = await Promise.all([deps.gateway.getSelection(), deps.gateway.listBindings(), deps.companyId()]);
  const options = { ...given, fiscalYearStartMonth: given.fiscalYearOf?.(company) ?? given.fiscalYearStartMonth };
  const fromBlock = statementCellTarget(selection, bindings, { fiscalYearStartMonth: options.fiscalYearStartMonth });
  let target: CellTarget;
  let prefetched: { categories?: Category[]; snap?: MeterSnapshot } | undefined;
  if (fromBlock) {
    if (!fromBlock.ok) throw new Error(fromBlock.message);
    target = fromBlock.target;
    if (target.company) await refuseOtherCompany(deps, target.company, target.company);
  } else {
    const formula = parseFinFormula(selection.topLeft.formula);
    if (!formula) throw new Error(SELECT_A_NUMBER);
    if (!formula.ok) throw new Error(formula.message);
    const named = formulaCompany(formula.value);
    if (named) await refuseOtherCompany(deps, named, options.companyOf?.(named) ?? named);
    const needsSystem = formula.value.args.some((a) => typeof a === 'number');
    const dateSystem = needsSystem ? await deps.gateway.getDateSystem() : undefined;
    const snap = await meterSnapshot(deps.client);
    options.onProgress?.({ phase: 'reference', message: 'Reading the chart of accounts…' });
    const categories = (await deps.spend('/categories', (o) => deps.client.categories.list(o))).data;
    const found = formulaTarget(formula.value, selection.topLeft.formula!, categories, {
      today: options.today,
      fiscalYearStartMonth: options.fiscalYearStartMonth,
      dateSystem,
    });
    if (!found.ok) throw new Error(found.message);
    target = found.target;
    prefetched = { categories, snap };
  }
  const res = await drillDown(deps, { categoryId: target.categoryId, start: target.start, end: target.end }, options.onProgress, prefetched);
  // A balance drilled into as its year's activity: that note replaces the engine's period-activity one.
  const note = target.note && res.pointInTime ? target.note : [res.note, target.note].filter(Boolean).join(' ');
  return { ...res, note, target };
}
