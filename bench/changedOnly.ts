// Issue 14's figures: the workbook's one refresh, as the pane runs it (src/runtime/workspace.ts), on the
// reference board pack, Refresh changes against Full refresh. Counts are exact (the sandbox's own counter). Changes
// are made upstream, as a teammate or the bank feed would (POST /__sandbox/transactions/:id, uncounted),
// on transactions picked straight from the sandbox's database (setup, not the add-in's calls).
import type { RefreshKind } from '../src/engine/refresh/workbookRefresh';
import { requestOfKey } from '../src/engine/reader/requestCache';
import { addDays, calendarDateAt } from '../src/engine/dates';
import type { TestSandbox } from '../test/support/sandbox';
import { buildPack, evaluateFormulas, measure, sleep, type PackDefinition } from './pack';

/** A Startup company's month: working days, each with its refresh of changes. */
const STARTUP_DAYS = 22;
const STARTUP_CAP = 300;
/** Typical activity: transactions changed (new, categorised, approved) per working day. */
const CHANGES_PER_DAY = 40;
/** Edits of one month of the pack's year, as in the issue. */
const MONTH_EDITS = 25;

export interface ChangedOnlyFigures {
  fullRefresh: { calls: number };
  nothingChanged: { calls: number };
  oneMonthEdits: { month: string; edits: number; calls: number; requests: string[]; fullCalls: number };
  closedThroughPriorQuarter: { closedThrough: string; month: string; calls: number; requests: string[]; openCalls: number };
  monthEndClose: { month: string; recategorised: number; spread: number; redated: number; calls: number; ran: string };
  startupMonth: { days: number; changesPerDay: number; changedFrom: string; calls: number; perDay: number[]; fullDailyCalls: number; cap: number };
}

function describeKey(key: string): string {
  const req = requestOfKey(key);
  if (!req) return key;
  const query = Object.entries(req.query ?? {})
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join('&');
  return query ? `${req.path}?${query}` : req.path;
}

export async function changedOnlyBench(sb: TestSandbox, def: PackDefinition): Promise<ChangedOnlyFigures> {
  const pack = await buildPack(sb, def, async (rt) => {
    void evaluateFormulas(rt, def);
  });
  const { rt, workspace } = pack;
  const company = sb.companies['growth-admin'];
  /** The pane's refresh: its cost asked (the plan read once), then the refresh of that plan. */
  const refresh = async (kind: RefreshKind) => {
    // Past the watermark's second, as a user's later refresh would be.
    await sleep(1100);
    const run = await measure(sb, rt, async () => (await workspace.refresh(await workspace.askRefresh(kind))).result);
    if (run.value.blocks.failed.length) throw new Error(`${kind} refresh: a block failed`);
    return run;
  };
  /** The cached requests a run marked due (fetched again or derived from the statements again, frozen ones aside), as path?query. */
  const markedSince = async (t0: number) =>
    [...(await rt.reader.changes())]
      .filter(([key, at]) => at >= t0 && !rt.reader.cache.isFrozen(key))
      .map(([key]) => describeKey(key))
      .sort();
  const db = sb.running.ctx.db;
  const pick = (from: string, to: string, n: number, offset = 0) =>
    (
      db
        .prepare(
          `SELECT id FROM transactions WHERE company_id = ? AND deleted = 0 AND transaction_type = 'standard'
             AND COALESCE(accounting_date_override, date) BETWEEN ? AND ? ORDER BY id LIMIT ? OFFSET ?`,
        )
        .all(company, from, to, n, offset) as { id: string }[]
    ).map((r) => r.id);
  const touch = async (ids: string[], note: string) => {
    for (const id of ids) await sb.control(`transactions/${id}`, { description: note });
  };

  const full = await refresh('full');
  const nothing = await refresh('changed');

  const month = `${def.year}-03`;
  const monthIds = pick(`${month}-01`, `${month}-31`, MONTH_EDITS);
  await touch(monthIds, 'edited upstream');
  let t0 = Date.now();
  const oneMonth = await refresh('changed');
  const oneMonthRequests = await markedSince(t0);

  // A typical month-end close of June (issue 34): recategorisations, annual contracts spread over the next
  // twelve months, and accruals re-dated into the month they belong to. The edits go through the API (their
  // calls are the edits', not the refresh's: measure counts the refresh alone).
  const closeMonth = `${def.year}-06`;
  const closeIds = pick(`${closeMonth}-01`, `${closeMonth}-30`, 30, 2 * MONTH_EDITS);
  const categories = (await rt.client.categories.list()).data.filter((c) => c.account_type === 'expense' && c.tier > 1);
  const [recat, spread, redate] = [closeIds.slice(0, 15), closeIds.slice(15, 20), closeIds.slice(20, 30)];
  for (const [i, id] of recat.entries()) await sb.control(`transactions/${id}`, { category_id: categories[i % categories.length].id });
  const editsOk = async (work: () => Promise<unknown>) => work().then(() => 1, () => 0);
  let spreadDone = 0;
  for (const id of spread) spreadDone += await editsOk(() => rt.client.transactions.update(id, { spread: { start_date: `${closeMonth}-01`, end_date: `${def.year + 1}-05-31` } }));
  let redated = 0;
  for (const id of redate) redated += await editsOk(() => rt.client.transactions.update(id, { accounting_date: `${def.year}-05-31` }));
  const close = await refresh('changed');

  // A month of working days: each day the company's recent transactions change, then Refresh changes.
  const today = calendarDateAt(Date.now());
  const changedFrom = addDays(today, -45);
  const recent = pick(changedFrom, today, STARTUP_DAYS * CHANGES_PER_DAY);
  const perDay: number[] = [];
  for (let day = 0; day < STARTUP_DAYS; day++) {
    const ids = Array.from({ length: CHANGES_PER_DAY }, (_, i) => recent[(day * CHANGES_PER_DAY + i) % Math.max(1, recent.length)]).filter(Boolean);
    await touch(ids, `day ${day + 1}`);
    perDay.push((await refresh('changed')).calls);
  }


  // Last: reopening the books leaves due what the close kept (a later refresh fetches it).
  const closedThrough = `${def.year}-09-30`;
  await workspace.closeBooks(closedThrough);
  await touch(pick(`${month}-01`, `${month}-31`, MONTH_EDITS, MONTH_EDITS), 'edited upstream again');
  t0 = Date.now();
  const closed = await refresh('changed');
  const closedRequests = await markedSince(t0);
  await workspace.closeBooks(null);

  return {
    fullRefresh: { calls: full.calls },
    nothingChanged: { calls: nothing.calls },
    oneMonthEdits: { month, edits: monthIds.length, calls: oneMonth.calls, requests: oneMonthRequests, fullCalls: full.calls },
    closedThroughPriorQuarter: { closedThrough, month, calls: closed.calls, requests: closedRequests, openCalls: oneMonth.calls },
    monthEndClose: { month: closeMonth, recategorised: recat.length, spread: spreadDone, redated, calls: close.calls, ran: close.value.ran },
    startupMonth: {
      days: STARTUP_DAYS,
      changesPerDay: CHANGES_PER_DAY,
      changedFrom,
      calls: perDay.reduce((a, b) => a + b, 0),
      perDay,
      fullDailyCalls: STARTUP_DAYS * full.calls,
      cap: STARTUP_CAP,
    },
  };
}
