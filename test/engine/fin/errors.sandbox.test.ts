// FIN errors against a real sandbox: what the cell says, and what it costs (nothing, wherever the answer
// can be known without a call).
import { DateTime } from 'luxon';
import { calendarDateAt } from '../../../src/engine/dates';
import { FinError } from '../../../src/engine/fin';
import { startSandbox, type TestSandbox } from '../../support/sandbox';
import { finHarness, lastFullYear, serial } from './finHarness';

let sb: TestSandbox;
const year = lastFullYear();
const month = `${year}-07`;

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});

async function failure(promise: Promise<unknown>): Promise<FinError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a FinError, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(FinError);
  return outcome.error as FinError;
}

describe('arguments', () => {
  it('unknown category: #VALUE! with the nearest names, after the one categories call only', async () => {
    const h = await finHarness(sb, 'growth-admin');
    const e = await failure(h.service.pnl({ line: 'Sofware Subscriptions', start: month }));
    expect(e).toMatchObject({
      kind: 'value',
      code: 'unknown_category',
      message: 'Unknown category "Sofware Subscriptions": did you mean "Software Subscriptions"? FIN.CATEGORIES() lists them',
    });
    const t = await failure(h.service.total({ category: 'Salaries', start: month }));
    expect(t.message).toBe('Unknown category "Salaries": did you mean "Salaries & Wages"? FIN.CATEGORIES() lists them');
    expect(h.sent()).toBe(1);
  });

  it('bad dates: #VALUE! with the dates module message, before any call', async () => {
    const h = await finHarness(sb, 'growth-admin');
    expect((await failure(h.service.pnl({ line: 'Rent', start: `${year}-13` }))).message).toBe(
      `Bad date "${year}-13": month 13 does not exist; use a date (a date cell or 2026-07-31), 2026-07, 2026-Q3, FY2026, FY2026-Q1, YTD, TTM, 2026-07-1M or 2026-07 YTD`,
    );
    expect((await failure(h.service.balance({ category: 'Cash', date: '7/31/2025' }))).code).toBe('bad_date');
    expect((await failure(h.service.total({ category: 'Rent', start: 60 }))).message).toMatch(/^Bad date 60: serial 60 is Excel's 1900-02-29/);
    expect((await failure(h.service.pnl({ line: 'Rent', start: `${year}-06`, end: `${year}-03` }))).message).toBe(
      `Bad dates: the start ${year}-06-01 is after the end ${year}-03-31`,
    );
    expect((await failure(h.service.transactions({ start: null }))).message).toMatch(/^Missing date: /);
    expect(h.sent()).toBe(0);
  });

  it('FIN.TOTAL explains the whole-month granularity instead of widening the dates silently', async () => {
    const h = await finHarness(sb, 'growth-admin');
    const periodic = await failure(h.service.total({ category: 'Rent', start: `${year}-07-15`, end: `${year}-08-10` }));
    expect(periodic.message).toBe(
      `Totals come in whole months: ${year}-07-15 to ${year}-08-10 is read as ${year}-07-01 to ${year}-08-31 (Jul ${year} to Aug ${year}). ` +
        `Use whole months such as "${year}-07", or FIN.PNL for exact days`,
    );
    const balance = await failure(h.service.total({ category: 'Cash', start: serial(`${year}-07-15`) }));
    expect(balance.message).toBe(
      `Balances are read at month end: ${year}-07-15 is read as ${year}-07-31. Use a month such as "${year}-07" or a month-end date, or FIN.BALANCE for an exact day`,
    );
    const twoDates = await failure(h.service.total({ category: 'Cash', start: `${year}-01`, end: `${year}-03` }));
    expect(twoDates.message).toMatch(/^"Cash" is a balance \(point in time\): give one date or period/);
    expect(h.sent()).toBe(1); // the categories call; no total was asked for
  });

  it('a period that ends today is complete as of today: YTD, this month and today\'s balance work in FIN.TOTAL', async () => {
    const h = await finHarness(sb, 'growth-admin');
    const today = calendarDateAt(Date.now());
    const thisMonth = today.slice(0, 7);
    const ytd = await h.service.total({ category: 'Revenue', start: 'YTD' });
    // The API totals whole months, so YTD is January through this whole month: the same as naming them.
    expect(ytd).toBe(await h.service.total({ category: 'Revenue', start: `${today.slice(0, 4)}-01`, end: thisMonth }));
    expect(await h.service.total({ category: 'Revenue', start: `${thisMonth}-01`, end: today })).toBe(await h.service.total({ category: 'Revenue', start: thisMonth }));
    expect(await h.service.total({ category: 'Cash', start: today })).toBe(await h.service.total({ category: 'Cash', start: thisMonth }));
    // One categories call, and each distinct total once (YTD and its months are one request).
    expect(h.sent()).toBe(1 + 3);
  });

  it('the wrong statement for a category says which function to use', async () => {
    const h = await finHarness(sb, 'growth-admin');
    expect((await failure(h.service.pnl({ line: 'Cash', start: month }))).message).toBe('"Cash" is a balance-sheet category: use FIN.BALANCE or FIN.TOTAL for it');
    expect((await failure(h.service.balance({ category: 'Rent', date: month }))).message).toBe(
      '"Rent" is an income-statement category (activity over a period): use FIN.PNL or FIN.TOTAL for it',
    );
    expect((await failure(h.service.cashflow({ line: 'Rent', start: month }))).code).toBe('wrong_statement');
    expect((await failure(h.service.cashflow({ line: 'Cash', start: month }))).message).toMatch(/^The API's cash flow for \d{4}-\d{2}-01 to \d{4}-\d{2}-\d{2} has no line for "Cash" \(cat_\w+\) \(cash itself is its result/);
    expect((await failure(h.service.incomeStatement({ start: month, scale: 'billions' }))).code).toBe('bad_scale');
  });

  it('an ambiguous category name lists the paths; the path resolves it', async () => {
    const db = sb.running.ctx.db;
    const company = sb.companies['growth-admin'];
    const cogs = db.prepare("SELECT id FROM categories WHERE company_id = ? AND name = 'Cost of Revenue'").get(company) as { id: string };
    db.prepare(
      `INSERT INTO categories (id, company_id, name, account_type, point_in_time, tier, position, parent_id, selectable, role, cash_flow_class, created)
       VALUES ('cat_dupRent1', ?, 'Rent', 'expense', 0, 2, 9, ?, 1, NULL, NULL, 0)`,
    ).run(company, cogs.id);
    const h = await finHarness(sb, 'growth-admin');
    const e = await failure(h.service.pnl({ line: 'rent', start: month }));
    expect(e).toMatchObject({
      kind: 'value',
      code: 'ambiguous_category',
      message: 'Ambiguous category name "rent": matches "Cost of Revenue > Rent" and "Operating Expenses > General & Administrative > Rent"; use the path',
    });
    expect(await h.service.pnl({ line: 'Cost of Revenue > Rent', start: month })).toBe(0);
    expect(await h.service.pnl({ line: 'General & Administrative > Rent', start: month })).toBeLessThan(0);
    db.prepare("DELETE FROM categories WHERE id = 'cat_dupRent1'").run();
  });
});

describe('permissions', () => {
  it('a missing Reports: View is #N/A naming the permission, spent once, not on every recalculation', async () => {
    const key = sb.keys['growth-readonly'];
    const company = sb.companies['growth-readonly'];
    await sb.control('members', { key, permissions: { reports: 'none' } });
    const h = await finHarness(sb, 'growth-readonly');
    const before = await sb.usage(company);
    const e = await failure(h.service.pnl({ line: 'Rent', start: month }));
    expect(e.kind).toBe('na');
    expect(e.code).toBe('permission');
    expect(e.message).toMatch(/^Permission missing: the key's user needs Reports: View \(API said: .+\)$/);
    expect((await sb.usage(company)) - before).toBe(2); // categories (allowed) + the refused statement
    // Recalculation: same answer from memory, no call.
    expect((await failure(h.service.pnl({ line: 'Rent', start: month }))).code).toBe('permission');
    expect((await sb.usage(company)) - before).toBe(2);
    // What the key may read still works.
    expect((await h.service.categories()).length).toBeGreaterThan(10);
    // Once the permission is back, Refresh all forgets the refusal.
    await sb.control('members', { key, permissions: { reports: 'view' } });
    const report = await h.service.refreshAll({ recalculate: async () => undefined, quietMs: 10 });
    expect(report.limited).toBe(false);
    expect(typeof (await h.service.pnl({ line: 'Rent', start: month }))).toBe('number');
  });
});

describe('the monthly cap (Formation plan: 10 calls)', () => {
  const label = 'formation-admin';
  const nextReset = (): string => DateTime.now().setZone('America/Los_Angeles').startOf('month').plus({ months: 1 }).toISODate()!;

  it('answers the cap with its reset date, then stops calling; cached answers are still served', async () => {
    const company = sb.companies[label];
    await sb.control('usage', { company_id: company, count: 9 });
    const h = await finHarness(sb, label);
    const cats = await h.service.categories(); // the 10th call of the month
    expect(cats.length).toBeGreaterThan(10);
    expect(await sb.usage(company)).toBe(10);

    const e = await failure(h.service.pnl({ line: 'Rent', start: month }));
    expect(e).toMatchObject({ kind: 'na', code: 'monthly_limit', message: `Monthly API limit of 10 calls reached; resets ${nextReset()} (Pacific time)` });
    const sentAtCap = h.sent();

    // Every function now answers from memory: no request is sent to discover the cap again.
    const again = await Promise.all([
      failure(h.service.balance({ category: 'Cash', date: month })),
      failure(h.service.total({ category: 'Rent', start: month })),
      failure(h.service.transactions({ start: month })),
      failure(h.service.incomeStatement({ start: `${year}-08` })),
    ]);
    expect(again.map((x) => x.message)).toEqual(new Array(4).fill(e.message));
    expect(h.sent()).toBe(sentAtCap);
    expect(await h.service.categories()).toEqual(cats);
    expect(h.sent()).toBe(sentAtCap);

    // Refresh all under the cap clears nothing (the cells keep their values) and spends nothing.
    const report = await h.service.refreshAll({ recalculate: async () => undefined, quietMs: 10 });
    expect(report).toMatchObject({ spent: 0, due: 0, kept: 0, limited: true, message: `Refresh all: nothing refreshed. ${e.message}` });
    expect(await h.service.categories()).toEqual(cats);
    expect((await h.service.monthlyLimit())?.message).toBe(e.message);

    // A reopened workbook knows it too (persisted with the cache), still without a request.
    const reopened = await finHarness(sb, label, { stores: h.stores });
    expect((await failure(reopened.service.pnl({ line: 'Rent', start: `${year}-09` }))).message).toBe(e.message);
    expect(reopened.sent()).toBe(0);
    expect(await sb.usage(company)).toBe(10);
  });

  it('calls again once the reset has passed', async () => {
    const company = sb.companies[label];
    const h = await finHarness(sb, label);
    const blocked = await failure(h.service.total({ category: 'Rent', start: month }));
    expect(blocked.code).toBe('monthly_limit');
    // Move both clocks past the reset: the sandbox starts a new month, the service stops blocking.
    const offsetSeconds = 35 * 24 * 3600;
    await sb.control('control', { clock_offset_seconds: offsetSeconds });
    try {
      const later = await finHarness(sb, label, { stores: h.stores, now: () => Date.now() + offsetSeconds * 1000 });
      const value = await later.service.total({ category: 'Rent', start: month });
      expect(typeof value).toBe('number');
      expect(later.sent()).toBe(2); // the categories call (refused earlier, so never cached) and the total
      const newMonth = DateTime.now().plus({ seconds: offsetSeconds }).setZone('America/Los_Angeles').toFormat('yyyy-MM');
      const res = await fetch(`${sb.controlUrl}/usage?company_id=${company}&month=${newMonth}`);
      expect(((await res.json()) as { count: number }).count).toBe(2);
    } finally {
      await sb.control('control', { clock_offset_seconds: 0 });
    }
  });
});
