// The call economy of the FIN functions, measured against a real sandbox: the server's monthly counter
// (sb.usage), the client's meter and the HTTP requests actually sent must all agree.
//
// The board: 100 FIN.PNL cells, 10 categories x 10 cells spread over the 12 months of the last full
// year, with the dates written every way a workbook does (month text, serials, ISO dates, mixed) and
// the categories by name, lower-case name, path, path tail and id. Excel evaluates them concurrently.
// Floor: 12 income statements (one per month, shared by every line and cell of that month) + 1
// GET /categories (names -> ids, shared by every cell) = 13. GET /company is not needed: the runtime
// stores the company id with the key when connecting, and the client is given it.
import { centsToDisplay } from '../../../src/engine/render/money';
import type { IncomeStatement } from '../../../src/api/types';
import { FinError, NOT_FETCHED_TEXT, type FinService } from '../../../src/engine/fin';
import { startSandbox, type TestSandbox } from '../../support/sandbox';
import { finHarness, lastFullYear, monthsOf, serial, type FinHarness } from './finHarness';

let sb: TestSandbox;
let company: string;
let softwareId: string;
const year = lastFullYear();
const months = monthsOf(year);

beforeAll(async () => {
  sb = await startSandbox();
  company = sb.companies['growth-admin'];
  const row = sb.running.ctx.db
    .prepare("SELECT id FROM categories WHERE company_id = ? AND name = 'Software Subscriptions'")
    .get(company) as { id: string };
  softwareId = row.id;
});
afterAll(async () => {
  await sb.close();
});

const CATEGORY_REFS = () => [
  'Revenue',
  'subscription revenue',
  'Cost of Revenue',
  'Hosting & Infrastructure > Cloud Hosting',
  'Operating Expenses',
  'SALARIES & WAGES',
  'Advertising',
  'Operating Expenses > General & Administrative > Rent',
  softwareId,
  '  Travel ',
];

interface Cell {
  line: string;
  start: number | string;
  end?: number | string;
  month: number;
}

function boardCells(): Cell[] {
  const refs = CATEGORY_REFS();
  const cells: Cell[] = [];
  for (let c = 0; c < 10; c++) {
    for (let j = 0; j < 10; j++) {
      const month = (c + j) % 12;
      const p = months[month];
      const ym = p.start.slice(0, 7);
      const forms: Omit<Cell, 'line' | 'month'>[] = [
        { start: ym },
        { start: serial(p.start), end: serial(p.end) },
        { start: p.start, end: p.end },
        { start: serial(p.start), end: ym },
      ];
      cells.push({ line: refs[c], month, ...forms[j % 4] });
    }
  }
  return cells;
}

/** Like Excel: every cell starts at once, none waits for another. */
function evaluateBoard(service: FinService): Promise<number[]> {
  return Promise.all(boardCells().map((cell) => service.pnl({ line: cell.line, start: cell.start, end: cell.end })));
}

async function usage(): Promise<number> {
  return sb.usage(company);
}

describe('100 FIN.PNL cells over 12 months', () => {
  let first: FinHarness;
  let values: number[];

  it('cost exactly 12 statements + 1 categories call on a cold cache', async () => {
    first = await finHarness(sb, 'growth-admin');
    const before = await usage();
    values = await evaluateBoard(first.service);
    expect(values).toHaveLength(100);
    expect(values.every((v) => typeof v === 'number' && Number.isFinite(v))).toBe(true);
    expect((await usage()) - before).toBe(13);
    expect(await first.meterCount()).toBe(13);
    expect(first.sent()).toBe(13);
  });

  it('answers each cell with its statement line, converted from cents once', async () => {
    const cells = boardCells();
    const catalog = await first.service.categories();
    const idOfPath = new Map(catalog.slice(1).map((r) => [String(r[0]), String(r[1])]));
    const idOf = (ref: string): string => {
      if (ref.startsWith('cat_')) return ref;
      const wanted = ref.trim().toLowerCase();
      const hit = [...idOfPath.entries()].find(([path]) => path.toLowerCase() === wanted || path.toLowerCase().endsWith(`> ${wanted}`));
      return hit![1];
    };
    for (let i = 0; i < cells.length; i++) {
      const p = months[cells[i].month];
      const report = (await first.cache.peek<IncomeStatement>(company, {
        path: '/reports/income_statement',
        query: { start_date: p.start, end_date: p.end },
      }))!.value;
      const id = idOf(cells[i].line);
      const line = [report.revenue, report.expenses, report.non_operating_income].flatMap((s) => s.categories).find((l) => l.category_id === id)!;
      expect(values[i]).toBe(centsToDisplay(line.amount_cents, 'units'));
    }
  });

  it('costs nothing on a second evaluation (recalculation)', async () => {
    const before = await usage();
    const sentBefore = first.sent();
    expect(await evaluateBoard(first.service)).toEqual(values);
    expect((await usage()) - before).toBe(0);
    expect(first.sent()).toBe(sentBefore);
    expect(await first.meterCount()).toBe(13);
  });

  it('costs nothing after a reopen (new client, cache and service over the same stores)', async () => {
    const reopened = await finHarness(sb, 'growth-admin', { stores: first.stores });
    const before = await usage();
    expect(await evaluateBoard(reopened.service)).toEqual(values);
    expect((await usage()) - before).toBe(0);
    expect(reopened.sent()).toBe(0);
    // The data-as-of time survived the reopen too, and reading it is free.
    expect(await reopened.service.refreshedText()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    expect(reopened.sent()).toBe(0);
  });

  it('value preview answers from the cache or with a placeholder, never with a call', async () => {
    const warm = await finHarness(sb, 'growth-admin', { stores: first.stores });
    const cold = await finHarness(sb, 'growth-admin');
    const cell = boardCells()[7];
    await expect(warm.service.pnl({ line: cell.line, start: cell.start, end: cell.end }, { preview: true })).resolves.toBe(values[7]);
    const preview = await cold.service.pnl({ line: cell.line, start: cell.start, end: cell.end }, { preview: true }).catch((e: unknown) => e);
    expect(preview).toBeInstanceOf(FinError);
    expect(preview).toMatchObject({ kind: 'na', message: 'Preview: press Enter to fetch' });
    expect(warm.sent() + cold.sent()).toBe(0);
    expect(await cold.service.refreshedText()).toBe(NOT_FETCHED_TEXT);
  });

  it('Refresh all costs the floor again and reports it', async () => {
    const reopened = await finHarness(sb, 'growth-admin', { stores: first.stores });
    await evaluateBoard(reopened.service); // from the persisted store: free
    const asOfBefore = await reopened.service.dataAsOf();
    // Shown before spending: one call per cached answer.
    expect(await reopened.service.estimateRefreshCalls()).toBe(13);
    const before = await usage();
    let recalculated: Promise<number[]> | undefined;
    const report = await reopened.service.refreshAll({
      // Like Excel: calculate() returns, then the functions run on their own.
      recalculate: async () => {
        setTimeout(() => {
          recalculated = evaluateBoard(reopened.service);
        }, 20);
      },
      quietMs: 150,
    });
    expect(report).toMatchObject({ spent: 13, due: 13, kept: 0, settled: true, limited: false, message: 'Refresh all spent 13 calls' });
    expect((await usage()) - before).toBe(13);
    expect(reopened.sent()).toBe(13);
    expect(await recalculated).toEqual(values);
    expect((await reopened.service.dataAsOf())!).toBeGreaterThanOrEqual(asOfBefore!);
    // And the refreshed answers are persisted: another reopen is free again.
    const again = await finHarness(sb, 'growth-admin', { stores: first.stores });
    await evaluateBoard(again.service);
    expect(again.sent()).toBe(0);
  });
});

describe('the figures agree with each other', () => {
  let h: FinHarness;
  beforeAll(async () => {
    h = await finHarness(sb, 'growth-admin');
  });

  it('FIN.TOTAL equals the income statement line for the same category and months', async () => {
    const periods: [unknown, unknown?][] = [
      [`${year}-03`],
      [`${year}-Q2`],
      [`FY${year}`],
      [`${year}-01`, `${year}-02`],
      [serial(`${year}-10-01`), serial(`${year}-11-30`)],
    ];
    for (const category of ['Revenue', 'Subscription Revenue', 'Operating Expenses', 'Rent', 'Cloud Hosting', 'Interest Income']) {
      for (const [start, end] of periods) {
        const total = await h.service.total({ category, start, end });
        const line = await h.service.pnl({ line: category, start, end });
        expect({ category, start, total }).toEqual({ category, start, total: line });
      }
    }
  });

  it('FIN.TOTAL of a balance category equals the balance sheet line at the month end', async () => {
    for (const category of ['Cash', 'Accounts Payable', 'Current Assets', 'Fixed Assets', 'Liabilities']) {
      for (const date of [`${year}-06`, `${year}-12-31`, `${year}-Q3`, serial(`${year}-02-28`)]) {
        const total = await h.service.total({ category, start: date });
        const line = await h.service.balance({ category, date });
        expect({ category, date, total }).toEqual({ category, date, total: line });
      }
    }
  });

  it('the cash flow lines agree with the income statement and the balance sheet', async () => {
    const q1 = `${year}-Q1`;
    const priorYearEnd = `${year - 1}-12-31`;
    const quarterEnd = `${year}-03-31`;
    const change = await h.service.cashflow({ line: 'Change in Cash', start: q1 });
    const cashEnd = await h.service.balance({ category: 'Cash', date: quarterEnd });
    const cashStart = await h.service.balance({ category: 'Cash', date: priorYearEnd });
    expect(change).toBeCloseTo(cashEnd - cashStart, 2);
    expect(await h.service.cashflow({ line: 'Net Income', start: q1 })).toBe(await h.service.pnl({ line: 'Net Income', start: q1 }));
    expect(await h.service.cashflow({ line: 'Ending Cash', start: q1 })).toBe(cashEnd);
    const wc = await h.service.cashflow({ line: 'changes in working capital', start: q1 });
    expect(await h.service.cashflow({ line: 'grp_working_capital', start: q1 })).toBe(wc);
    const ap = await h.service.cashflow({ line: 'Accounts Payable', start: q1 });
    const apChange =
      (await h.service.balance({ category: 'Accounts Payable', date: quarterEnd })) -
      (await h.service.balance({ category: 'Accounts Payable', date: priorYearEnd }));
    expect(ap).toBeCloseTo(apChange, 2);
  });

  it('spills whole statements through renderStatement, in the chosen scale', async () => {
    const month = `${year}-07`;
    const is = await h.service.incomeStatement({ start: month });
    expect(is[0]).toEqual(['Income statement (USD)', `Jul ${year}`]);
    expect(is.every((row) => row.length === 2)).toBe(true);
    const net = is.find((row) => row[0] === 'Net income')!;
    expect(net[1]).toBe(await h.service.pnl({ line: 'Net Income', start: month }));
    const isK = await h.service.incomeStatement({ start: month, scale: 'thousands' });
    expect(isK[0][0]).toBe('Income statement (USD, thousands)');
    expect(isK.find((row) => row[0] === 'Net income')![1]).toBeCloseTo((net[1] as number) / 1000, 8);

    const bs = await h.service.balanceSheet({ date: `${year}-12`, scale: 1_000_000 });
    expect(bs[0]).toEqual(['Balance sheet (USD, millions)', `${year}-12-31`]);
    const assets = bs.find((row) => row[0] === 'Total assets')![1] as number;
    expect(assets).toBeCloseTo((await h.service.balance({ category: 'Assets', date: `${year}-12` })) / 1e6, 8);
    expect(bs.find((row) => row[0] === 'Check: liabilities and equity = assets')![1]).toBe(0);
    // Names come from the API as text.
    expect(bs.some((row) => row[0] === 'Cash')).toBe(true);

    const cf = await h.service.cashFlowStatement({ start: `${year}-Q1` });
    expect(cf[0][0]).toBe('Cash flow statement (USD)');
    expect(cf.find((row) => row[0] === 'Net change in cash')![1]).toBe(await h.service.cashflow({ line: 'Change in Cash', start: `${year}-Q1` }));
  });
});

describe('lists', () => {
  let h: FinHarness;
  beforeAll(async () => {
    h = await finHarness(sb, 'growth-admin');
  });

  it('FIN.TRANSACTIONS: header row, pages of 500, a row cap with a note, and page sharing', async () => {
    const start = `${year}-01`;
    const end = `${year}-06`;
    const rows = await h.service.transactions({ start, end, maxRows: 600 });
    expect(rows[0]).toEqual(['Date', 'Accounting date', 'Amount', 'Currency', 'Merchant', 'Description', 'Category', 'Department', 'Status', 'Id']);
    expect(rows).toHaveLength(1 + 600 + 1);
    expect(rows[601][0]).toBe('… more rows not shown (first 600; raise max_rows up to 10000 or narrow the dates)');
    expect(rows.every((r) => r.length === 10)).toBe(true);
    for (const r of rows.slice(1, 601)) {
      expect(r[0] >= `${year}-01-01` && r[0] <= `${year}-06-30`).toBe(true);
      expect(typeof r[2]).toBe('number');
      expect(String(r[9])).toMatch(/^txn_/);
    }
    expect(h.sent()).toBe(2); // two pages of 500; no categories call without a category filter
    const first500 = await h.service.transactions({ start, end, maxRows: 500 });
    expect(first500).toHaveLength(1 + 500 + 1);
    expect(h.sent()).toBe(2); // page 1 came from the cache
  });

  it('FIN.TRANSACTIONS filters by category and status', async () => {
    const rent = await h.service.transactions({ start: `FY${year}`, category: 'Rent' });
    expect(rent.length).toBeGreaterThan(1);
    expect(rent.slice(1).every((r) => r[6] === 'Rent')).toBe(true);
    const pending = await h.service.transactions({ start: `${year - 1}-12`, end: calendarToday(), status: 'pending', maxRows: 50 });
    expect(pending.slice(1).filter((r) => String(r[9]).startsWith('txn_')).every((r) => r[8] === 'pending')).toBe(true);
    const parent = await h.service.transactions({ start: `${year}-07`, category: 'Operating Expenses' });
    expect(parent).toEqual([
      ['Date', 'Accounting date', 'Amount', 'Currency', 'Merchant', 'Description', 'Category', 'Department', 'Status', 'Id'],
      ['No transactions: the filter matches "Operating Expenses" itself, not its subcategories', '', '', '', '', '', '', '', '', ''],
    ]);
  });

  it('FIN.CATEGORIES, FIN.DEPARTMENTS and FIN.MERCHANTS', async () => {
    const cats = await h.service.categories();
    expect(cats[0]).toEqual(['Category', 'Id', 'Account type', 'Point in time']);
    expect(cats).toContainEqual(['Operating Expenses > General & Administrative > Rent', expect.stringMatching(/^cat_/), 'expense', false]);
    expect(cats).toContainEqual(['Assets > Current Assets > Cash', expect.stringMatching(/^cat_/), 'asset', true]);
    const depts = await h.service.departments();
    expect(depts[0]).toEqual(['Department', 'Id', 'Assignable']);
    expect(depts).toContainEqual(['Northwind Analytics > Go-to-Market > Customer Success > Operations', expect.stringMatching(/^dept_/), true]);
    expect(depts).toContainEqual(['Northwind Analytics > General & Administrative > Finance > Operations', expect.stringMatching(/^dept_/), true]);
    // Departments resolve like categories: the repeated name needs its path.
    await expect(h.service.resolveDepartment('Operations')).rejects.toMatchObject({ code: 'ambiguous_department' });
    await expect(h.service.resolveDepartment('Finance > Operations')).resolves.toMatchObject({ name: 'Operations' });

    const names = await h.service.merchants({ category: 'Software Subscriptions' });
    expect(names[0]).toEqual(['Merchant']);
    expect(names.length).toBeGreaterThan(2);
    const merchant = String(names[1][0]);
    const withMerchant = await h.service.total({ category: 'Software Subscriptions', start: `FY${year}`, merchant });
    const all = await h.service.total({ category: 'Software Subscriptions', start: `FY${year}` });
    expect(typeof withMerchant).toBe('number');
    expect(Math.abs(withMerchant)).toBeLessThanOrEqual(Math.abs(all));
  });
});

function calendarToday(): string {
  return new Date().toISOString().slice(0, 10);
}
