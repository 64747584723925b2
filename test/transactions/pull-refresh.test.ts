// Pulling transactions into a table and refreshing it, against a real sandbox, with a MemoryGateway
// workbook: every filter reaches the API, progress is reported per page, the table's columns and formats,
// incremental refresh (update in place, add, tombstones, local edits kept and flagged) for immutable
// filters and a re-pull for mutable ones.

import type { Transaction } from '../../src/api';
import { collect } from '../support/collect';
import { COL, MSG, TABLE_COLUMNS, type Progress } from '../../src/engine/transactions';
import { MEMORY_LISTS_SHEET, type MemoryGateway } from '../../src/excel/memoryGateway';
import { isoToSerial } from '../../src/engine/dates';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { newWorkbook, rig, rowById, sandboxToday, sleep, tableRows, typeInto, usageDelta, type Rig } from './support';

let sb: TestSandbox;
let wb: MemoryGateway;
let r: Rig;

beforeAll(async () => {
  sb = await startSandbox();
  wb = newWorkbook();
  r = await rig(sb, wb);
});
afterAll(() => sb?.close());

const serial = (iso: string) => {
  const s = isoToSerial(iso, 1900);
  if (!s.ok) throw new Error(s.error);
  return s.value;
};
const daysAgo = (today: string, n: number) => {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
};

/** A change made now lands behind the watermark of a run started after this (watermark = now - 1). */
const pastNextSecond = () => sleep(1100);

async function departmentPaths() {
  const { data: departments } = await r.client.departments.list();
  const byId = new Map(departments.map((d) => [d.id, d]));
  const pathOf = (id: string): string => {
    const d = byId.get(id)!;
    return d.parent_id ? `${pathOf(d.parent_id)} > ${d.name}` : d.name;
  };
  const parents = new Set(departments.map((d) => d.parent_id));
  const leaves = departments.filter((d) => d.assignable && !parents.has(d.id));
  return { departments, pathOf, leaves };
}

let tableName = '';
let bindingId = '';
let window: { start_date: string; end_date: string };
let pulled: Transaction[] = [];
let mutable: { bindingId: string; table: string; ids: string[] };

describe('pull', () => {
  test('an immutable-filter pull: rows, columns, formats, dropdown, binding, progress, calls', async () => {
    const today = sandboxToday(sb);
    window = { start_date: daysAgo(today, 120), end_date: daysAgo(today, 60) };
    const progress: Progress[] = [];
    const { value: res, calls } = await usageDelta(sb, r.companyId, () => r.engine.pull(window, { onProgress: (p) => progress.push(p) }));
    pulled = await collect(r.client.transactions.iterate(window));
    expect(res.rows).toBe(pulled.length);
    expect(res.rows).toBeGreaterThan(500); // more than one page
    expect(res.incremental).toBe(true);
    expect(res.mutableFilters).toEqual([]);
    // GET /departments + GET /company + one call per page of 500 (a page may carry tombstones of
    // transactions deleted before the pull: they are skipped).
    expect(res.pages).toBeGreaterThanOrEqual(Math.ceil(res.rows / 500));
    expect(res.pages).toBeLessThanOrEqual(Math.ceil(res.rows / 500) + 1);
    expect(calls).toBe(2 + res.pages);
    expect(res.calls).toBe(calls);
    tableName = res.table;
    bindingId = res.bindingId;

    const fetching = progress.filter((p) => p.phase === 'fetching');
    expect(fetching).toHaveLength(res.pages);
    fetching.forEach((p, i) => {
      expect(p.pages).toBe(i + 1);
      expect(p.rows).toBeLessThanOrEqual((i + 1) * 500);
      expect(p.rows).toBeGreaterThan(i === 0 ? 0 : fetching[i - 1].rows!);
    });
    expect(fetching.at(-1)?.rows).toBe(res.rows);
    expect(progress.at(-1)?.phase).toBe('done');

    expect(wb.activeSheetName()).toBe(res.sheet);
    const read = await wb.readTable(tableName);
    expect(read.columns).toEqual(TABLE_COLUMNS.map((c) => c.name));
    const rows = await tableRows(wb, tableName);
    // Newest first.
    const dates = rows.map((x) => x[COL.date] as number);
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);

    const { pathOf: path, leaves: leafDepts } = await departmentPaths();
    const withDept = pulled.find((t) => t.department_id && t.merchant && t.accounting_date && t.accounting_date !== t.date) ?? pulled.find((t) => t.department_id && t.merchant)!;
    const row = await rowById(wb, tableName, withDept.id);
    expect(row[COL.department]).toBe(path(withDept.department_id!));
    expect(String(row[COL.department]).split(' > ').length).toBeGreaterThanOrEqual(3);
    expect(row[COL.pulledDepartment]).toBe(row[COL.department]);
    expect(row[COL.date]).toBe(serial(withDept.date));
    expect(row[COL.accountingDate]).toBe(serial(withDept.accounting_date ?? withDept.date));
    expect(row[COL.pulledAccountingDate]).toBe(row[COL.accountingDate]);
    expect(row[COL.amount]).toBe(withDept.amount_cents / 100);
    expect(row[COL.merchant]).toBe(withDept.merchant);
    expect(row[COL.pushStatus]).toBe('');

    // Date cells are numbers with a date format; API text is text.
    const sheet = res.sheet;
    expect(wb.cell(sheet, 'A2').numberFormat).toBe('yyyy-mm-dd');
    expect(wb.cell(sheet, 'B2').numberFormat).toBe('yyyy-mm-dd');
    expect(wb.cell(sheet, 'E2').numberFormat).toBe('@');

    // The Department dropdown: every assignable leaf by full path, and nothing else.
    const leaves = leafDepts.map((d) => path(d.id));
    const source = wb.validationSource(sheet, 'H2');
    expect(source).toContain(MEMORY_LISTS_SHEET);
    const m = /!\$A\$2:\$A\$(\d+)$/.exec(source!.replace(/^=/, ''));
    const n = Number(m?.[1]) - 1;
    const items = Array.from({ length: n }, (_, i) => wb.cell(MEMORY_LISTS_SHEET, `A${i + 2}`).value);
    expect(items).toEqual(leaves);
    // Names repeat across the tree ("Operations"), paths do not.
    expect(new Set(items).size).toBe(items.length);

    const [binding] = (await wb.listBindings()).filter((b) => b.id === bindingId);
    expect(binding).toMatchObject({ kind: 'transactions', table: tableName });
    expect(binding.parameters).toMatchObject({ filters: window, incremental: true, watermark: res.watermark });
  });

  test('every list filter reaches the API; a mutable filter makes refresh a re-pull', async () => {
    const cat = pulled.find((t) => t.category_id && t.merchant && ['bank', 'credit', 'reimbursement'].includes(t.source.type ?? ''))!;
    const filters = {
      start_date: window.start_date,
      end_date: window.end_date,
      status: 'approved',
      transaction_type: 'standard',
      categorized: true,
      category_id: cat.category_id!,
      merchant: cat.merchant!.slice(0, 4).toLowerCase(),
      source_vendor: cat.source.vendor.toUpperCase(),
      source_type: cat.source.type ?? undefined,
    };
    const expected = pulled.filter(
      (t) =>
        t.status === 'approved' &&
        t.transaction_type === 'standard' &&
        t.categorized &&
        t.category_id === cat.category_id &&
        (t.merchant ?? '').toLowerCase().includes(filters.merchant) &&
        t.source.vendor.toLowerCase() === cat.source.vendor.toLowerCase() &&
        (!filters.source_type || (t.source.type ?? '').toLowerCase() === filters.source_type),
    );
    const res = await r.engine.pull(filters);
    mutable = { bindingId: res.bindingId, table: res.table, ids: expected.map((t) => t.id) };
    expect(res.rows).toBe(expected.length);
    expect(res.rows).toBeGreaterThan(0);
    expect(res.incremental).toBe(false);
    expect(res.mutableFilters.sort()).toEqual(['categorized', 'category_id', 'merchant', 'status', 'transaction_type']);
    const ids = (await tableRows(wb, res.table)).map((x) => x[COL.id]).sort();
    expect(ids).toEqual(expected.map((t) => t.id).sort());

    // Bad filters never reach the API.
    await expect(r.engine.pull({ start_date: '2026-02-30' })).rejects.toThrow(/date/);
    await expect(r.engine.pull({ status: 'done' })).rejects.toThrow(/approved or pending/);
  });
});

describe('incremental refresh', () => {
  test('upstream changes update rows in place, tombstones remove them, local edits are kept and flagged', async () => {
    const rows = await tableRows(wb, tableName);
    const standard = pulled.filter((t) => t.transaction_type === 'standard' && t.department_id);
    const [renamed, deleted, deletedEdited, bothChanged, upstreamOnly, sameAsEdit] = standard.slice(0, 6);
    const { leaves, pathOf } = await departmentPaths();
    const other = (id: string | null) => leaves.find((d) => d.id !== id)!;
    const pathOfLeaf = (id: string) => pathOf(id);
    const localPath = pathOfLeaf(other(bothChanged.department_id).id);

    // Local edits, as typed in Excel.
    const sameTarget = other(sameAsEdit.department_id);
    const samePath = pathOfLeaf(sameTarget.id)!;
    await typeInto(wb, tableName, [
      { id: deletedEdited.id, values: { [COL.accountingDate]: serial(sandboxToday(sb)) } },
      { id: bothChanged.id, values: { [COL.department]: localPath } },
      { id: sameAsEdit.id, values: { [COL.department]: samePath } },
    ]);

    // Upstream, as a teammate or the bank feed would change them.
    const upstreamDept = leaves.find((d) => d.id !== bothChanged.department_id && pathOfLeaf(d.id) !== localPath)!;
    const upstreamOnlyDept = other(upstreamOnly.department_id);
    await sb.control(`transactions/${renamed.id}`, { merchant: '=HYPERLINK("http://evil","x")' });
    await sb.control(`transactions/${deleted.id}`, { deleted: true });
    await sb.control(`transactions/${deletedEdited.id}`, { deleted: true });
    await sb.control(`transactions/${bothChanged.id}`, { department_id: upstreamDept.id });
    await sb.control(`transactions/${upstreamOnly.id}`, { department_id: upstreamOnlyDept.id });
    await sb.control(`transactions/${sameAsEdit.id}`, { department_id: sameTarget.id });
    await pastNextSecond();

    const before = rows.length;
    const { value: res, calls } = await usageDelta(sb, r.companyId, () => r.engine.refresh(bindingId));
    expect(res.mode).toBe('incremental');
    expect(res.note).toMatch(/Incremental/);
    // One page: 6 changes since the pull.
    expect(calls).toBe(1);
    expect(res.counts).toMatchObject({ removed: 1, flagged: 2 });

    const after = await tableRows(wb, tableName);
    expect(after.length).toBe(before - 1);
    expect(after.find((x) => x[COL.id] === deleted.id)).toBeUndefined();

    const a = after.find((x) => x[COL.id] === renamed.id)!;
    expect(a[COL.merchant]).toBe('=HYPERLINK("http://evil","x")'); // text, never a formula

    const b = after.find((x) => x[COL.id] === deletedEdited.id)!;
    expect(b[COL.pushStatus]).toBe(MSG.deletedUpstream);

    const c = after.find((x) => x[COL.id] === bothChanged.id)!;
    expect(c[COL.department]).toBe(localPath); // the edit is kept
    expect(c[COL.pulledDepartment]).toBe(pathOfLeaf(upstreamDept.id));
    expect(c[COL.pushStatus]).toMatch(/^Changed upstream since you edited — review/);

    const d = after.find((x) => x[COL.id] === upstreamOnly.id)!;
    expect(d[COL.department]).toBe(d[COL.pulledDepartment]);
    expect(d[COL.department]).toBe(pathOf(upstreamOnlyDept.id));

    const e = after.find((x) => x[COL.id] === sameAsEdit.id)!;
    expect(e[COL.department]).toBe(samePath);
    expect(e[COL.pulledDepartment]).toBe(samePath); // the server now agrees: no edit left
    expect(e[COL.pushStatus]).toBe('');

    // A second refresh with nothing changed: one call, nothing written.
    const again = await usageDelta(sb, r.companyId, () => r.engine.refresh(bindingId));
    expect(again.calls).toBe(1);
    expect(again.value.counts).toMatchObject({ updated: 0, added: 0, removed: 0 });

    // Review sees the two edits left: the flagged one and the deleted one (held).
    const plan = await r.engine.review(bindingId);
    expect(plan.held.map((h) => h.id)).toEqual([deletedEdited.id]);
    expect(plan.groups.map((g) => g.ids)).toEqual([[bothChanged.id]]);
  });
});

describe('refresh of a table with mutable filters', () => {
  test('is a full re-pull: a row that stopped matching goes, or stays flagged when it holds an edit', async () => {
    expect(mutable.ids.length).toBeGreaterThanOrEqual(2);
    const [stopped, stoppedEdited] = mutable.ids;
    const today = serial(sandboxToday(sb));
    await typeInto(wb, mutable.table, [{ id: stoppedEdited, values: { [COL.accountingDate]: today } }]);
    // status is one of the table's filters (approved): a pending row no longer matches, and an
    // incremental run would not even send a tombstone for it.
    await sb.control(`transactions/${stopped}`, { status: 'pending' });
    await sb.control(`transactions/${stoppedEdited}`, { status: 'pending' });
    await pastNextSecond();
    const { value: res, calls } = await usageDelta(sb, r.companyId, () => r.engine.refresh(mutable.bindingId));
    expect(res.mode).toBe('full');
    expect(res.note).toMatch(/^Full re-pull: the filters .*status/);
    expect(calls).toBe(res.pages);
    const rows = await tableRows(wb, mutable.table);
    expect(rows.find((x) => x[COL.id] === stopped)).toBeUndefined();
    const kept = rows.find((x) => x[COL.id] === stoppedEdited)!;
    expect(kept[COL.accountingDate]).toBe(today);
    expect(kept[COL.pushStatus]).toBe(MSG.unmatched);
    expect(rows.length).toBe(mutable.ids.length - 1);
  });
});

describe('a pull whose reference lists are refused', () => {
  test('stops at its first page (asked for beside them): 3 calls, the 403 named, nothing written', async () => {
    // A key that may read transactions but not the department tree (Accounting setup: none).
    const key = sb.keys['growth-readonly'];
    await sb.control('members', { key, permissions: { accounting_setup: 'none' } });
    const book = newWorkbook();
    const limited = await rig(sb, book, { label: 'growth-readonly' });
    const today = sandboxToday(sb);
    // A window of several pages: the run must not go past its first while the lists are missing.
    const many = { start_date: daysAgo(today, 365), end_date: today };
    const { value: error, calls } = await usageDelta(sb, limited.companyId, () => limited.engine.pull(many).then(() => null, (e: unknown) => e));
    expect(error).toMatchObject({ status: 403 });
    // GET /departments (403, counted) + GET /company + the first page.
    expect(calls).toBe(3);
    expect(await book.listBindings()).toEqual([]);
    expect(book.sheetNames()).not.toContain('Transactions');
  });
});
