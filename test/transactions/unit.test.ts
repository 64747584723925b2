// The engine's pure parts without a sandbox: paths, edit detection and checks, grouping and cost,
// reconcile's per-field rules, filters, and the journal's write order.

import type { Department, Transaction } from '../../src/api';
import { isoToSerial, type DateSystem } from '../../src/engine/dates';
import {
  COL,
  DepartmentDirectory,
  TABLE_COLUMNS,
  TableView,
  allowsIncrementalRefresh,
  canonicalUpdate,
  departmentRefs,
  detectEdit,
  estimateCost,
  groupEdits,
  mutableFilterNames,
  normPath,
  normalizeFilters,
  transactionRow,
} from '../../src/engine/transactions';
import { accountingWindow, checkEdit } from '../../src/engine/transactions/edits';
import { reconcile } from '../../src/engine/transactions/reconcile';
import { readBackNow } from '../../src/engine/transactions/reread';
import type { JobReport } from '../../src/engine/transactions/jobs';
import { bodyDigest, journalStorageKey, legacyJournalEntryKey, legacyJournalKey, openJournal } from '../../src/engine/transactions/journal';
import type { ReadValue } from '../../src/engine/ports/workbook';
import { MemoryGateway, MemorySecretStore } from '../../src/excel/memoryGateway';

const D = (id: string, name: string, parent: string | null, assignable = false): Department => ({ id, object: 'department', name, tier: 1, parent_id: parent, assignable });
const DEPTS = [
  D('dept_root', 'Co', null),
  D('dept_cs', 'Customer Success', 'dept_root'),
  D('dept_cs_ops', 'Operations', 'dept_cs', true),
  D('dept_fin', 'Finance', 'dept_root'),
  D('dept_fin_ops', 'Operations', 'dept_fin', true),
  D('dept_legacy', 'Legacy', 'dept_fin', false),
];
const dir = new DepartmentDirectory(departmentRefs(DEPTS));
const serial = (iso: string, sys: DateSystem = 1900) => (isoToSerial(iso, sys) as { ok: true; value: number }).value;

function txn(id: string, over: Partial<Transaction> = {}): Transaction {
  return {
    id,
    object: 'transaction',
    date: '2025-03-10',
    accounting_date: null,
    amount_cents: -12345,
    currency: 'USD',
    merchant: 'Acme',
    description: null,
    categorized: true,
    category_id: 'cat_1',
    category_name: 'Software',
    department_id: 'dept_cs_ops',
    department_name: 'Operations',
    transaction_type: 'standard',
    source: { vendor: 'chase', type: 'bank', account_name: 'Ops' },
    status: 'approved',
    spread: null,
    transfer_id: null,
    created: 1,
    ...over,
  };
}

function view(rows: (string | number | null)[][]): TableView {
  return new TableView({ name: 'T', sheet: 'S', address: 'S!A1', columns: TABLE_COLUMNS.map((c) => c.name), rows: rows.map((r) => r.map((v) => (v === null ? '' : v)) as ReadValue[]) });
}
const idx = (name: string) => TABLE_COLUMNS.findIndex((c) => c.name === name);
function rowOf(t: Transaction, edits: Record<string, string | number | null> = {}): (string | number | null)[] {
  const r = transactionRow(t, dir, 1900) as (string | number | null)[];
  for (const [k, v] of Object.entries(edits)) r[idx(k)] = v;
  return r;
}

test('department paths tell equal names apart; lookups forgive case and spacing', () => {
  expect(dir.assignablePaths()).toEqual(['Co > Customer Success > Operations', 'Co > Finance > Operations']);
  expect(dir.lookup('co>finance >  OPERATIONS')?.id).toBe('dept_fin_ops');
  expect(dir.lookup('Co > Finance > Legacy')?.assignable).toBe(false);
  expect(normPath(' a>b ')).toBe('a > b');
});

test('rows: dates are serials in the workbook date system, amounts in units, pulled columns equal the editable ones', () => {
  const t = txn('txn_1', { accounting_date: '2025-04-01' });
  const r = transactionRow(t, dir, 1904);
  expect(r[idx(COL.date)]).toBe(serial('2025-03-10', 1904));
  expect(r[idx(COL.accountingDate)]).toBe(serial('2025-04-01', 1904));
  expect(r[idx(COL.pulledAccountingDate)]).toBe(r[idx(COL.accountingDate)]);
  expect(r[idx(COL.amount)]).toBe(-123.45);
  expect(r[idx(COL.department)]).toBe('Co > Customer Success > Operations');
  expect(r[idx(COL.source)]).toBe('chase bank · Ops');
});

test('edit detection and local checks', () => {
  const ctx = { dir, system: 1900 as const, today: '2026-01-15', incorporationDate: '2021-06-01' };
  const v = view([
    rowOf(txn('txn_a')),
    rowOf(txn('txn_b'), { [COL.department]: 'co > finance > operations' }),
    rowOf(txn('txn_c'), { [COL.accountingDate]: null }), // blank = the transaction date = unchanged here
    rowOf(txn('txn_d', { accounting_date: '2025-04-01' }), { [COL.accountingDate]: null }), // back to the date
    rowOf(txn('txn_e'), { [COL.accountingDate]: serial('2029-01-15') }),
    rowOf(txn('txn_f', { transaction_type: 'split' }), { [COL.department]: '' }),
    rowOf(txn('txn_g'), { [COL.accountingDate]: '2025-05-31' }),
  ]);
  const edits = v.rows.map((r) => detectEdit(r, 1900));
  expect(edits.map((e) => !!e)).toEqual([false, true, false, true, true, true, true]);
  const results = edits.filter((e) => e).map((e) => checkEdit(e!, ctx));
  expect(results[0]).toEqual({ ok: true, edit: { id: 'txn_b', update: { department_id: 'dept_fin_ops' }, pulledDepartment: 'Co > Finance > Operations' } });
  expect(results[1]).toEqual({ ok: true, edit: { id: 'txn_d', update: { accounting_date: null }, pulledAccountingSerial: serial('2025-03-10') } });
  expect(results[2]).toEqual({ ok: false, message: 'Accounting date 2029-01-15 is outside the allowed range (2021-06-01 to before 2029-01-15)' });
  expect(results[3]).toEqual({ ok: false, message: 'Split transactions cannot be edited — undo the change' });
  expect(results[4]).toMatchObject({ ok: true, edit: { update: { accounting_date: '2025-05-31' } } });
  expect(accountingWindow('2026-01-15', null)).toEqual({ min: '2024-01-15', maxExclusive: '2029-01-15' });
});

test('grouping: identical updates share a group, 5,000 ids per job, one row is a PATCH, a shift never is', () => {
  const edits = [
    ...Array.from({ length: 12_001 }, (_, i) => ({ id: `txn_a${i}`, update: { department_id: 'dept_x' } })),
    { id: 'txn_b', update: { accounting_date: '2025-01-01', department_id: 'dept_x' } },
    { id: 'txn_c', update: { department_id: 'dept_x', accounting_date: '2025-01-01' } },
    { id: 'txn_d', update: { department_id: null } },
    { id: 'txn_e', update: { accounting_shift: 2 } },
  ];
  const groups = groupEdits(edits);
  expect(groups.map((g) => [g.ids.length, g.method, g.jobs.map((j) => j.length)])).toEqual([
    [12_001, 'bulk', [5000, 5000, 2001]],
    [2, 'bulk', [2]],
    [1, 'bulk', [1]],
    [1, 'patch', []],
  ]);
  expect(canonicalUpdate({ department_id: 'x', accounting_date: 'y' })).toBe(canonicalUpdate({ accounting_date: 'y', department_id: 'x' }));
  const cost = estimateCost(groups, { checkUpstream: true });
  // 12,004 rows in jobs: their values are known, and reading them back is left to the next sync (reread.ts).
  expect(cost).toMatchObject({ check: 1, patches: 1, submissions: 5, polls: 5, reread: 0, total: 1 + 1 + 10 });
  // A push whose jobs fit in one page reads them back with one call.
  expect(estimateCost(groups.slice(1), { checkUpstream: true })).toMatchObject({ submissions: 2, reread: 1, total: 1 + 1 + 4 + 1 });
  expect(estimateCost([], { checkUpstream: true }).total).toBe(0);
});

test('a push reads back what a page holds, a successful shift always, and nothing when no job succeeded', () => {
  const job = (kind: JobReport['kind'], rows: number, result: JobReport['result'] = 'success'): JobReport => ({
    idempotencyKey: `k${rows}`,
    jobId: 'job_1',
    kind,
    rows,
    update: kind === 'shift' ? { accounting_shift: 1 } : { department_id: 'dept_x' },
    result,
    updatedCount: result === 'success' ? rows : null,
    errors: 0,
    resumed: false,
  });
  expect(readBackNow([job('edit', 25), job('edit', 474)])).toBe(true);
  // 500 rows of known values: a page or more to read what the table holds already.
  expect(readBackNow([job('edit', 2500), job('edit', 1500), job('edit', 1000)])).toBe(false);
  expect(readBackNow([job('edit', 499), job('edit', 1)])).toBe(false);
  // Failed or unknown jobs changed nothing the table must learn now.
  expect(readBackNow([job('edit', 10, 'failed'), job('edit', 10, 'unknown')])).toBe(false);
  expect(readBackNow([job('edit', 5000), job('shift', 2)])).toBe(true);
  expect(readBackNow([])).toBe(false);
});

test('filters: validation, and which ones allow an incremental refresh', () => {
  expect(normalizeFilters({ start_date: ' 2025-01-01 ', merchant: '  ', source_type: 'BANK' })).toEqual({ ok: true, value: { start_date: '2025-01-01', source_type: 'bank' } });
  expect(normalizeFilters({ start_date: '2025-02-01', end_date: '2025-01-01' })).toEqual({ ok: false, error: 'The From date is after the To date.' });
  expect(allowsIncrementalRefresh({ source_vendor: 'x', start_date: '2025-01-01' })).toBe(true);
  expect(allowsIncrementalRefresh({ categorized: false })).toBe(false);
  expect(mutableFilterNames({ status: 'approved', merchant: 'a', end_date: '2025-01-01' })).toEqual(['status', 'merchant']);
});

test('reconcile: per field, a local edit is kept; the pulled value follows the server; a change under an edit is flagged', () => {
  const v = view([
    rowOf(txn('txn_a')), // unedited, server changed dept -> both cells follow
    rowOf(txn('txn_b'), { [COL.department]: 'Co > Finance > Operations' }), // edited dept, server changed accounting date only
    rowOf(txn('txn_c'), { [COL.department]: 'Co > Finance > Operations' }), // edited dept, server changed dept elsewhere -> flag
    rowOf(txn('txn_d'), { [COL.department]: 'Co > Finance > Operations' }), // edited dept, server now agrees -> edit done
    rowOf(txn('txn_e')), // tombstone, no edit -> delete
    rowOf(txn('txn_f'), { [COL.accountingDate]: serial('2025-06-30') }), // tombstone with edit -> kept, flagged
  ]);
  const out = reconcile({
    view: v,
    upserts: [
      txn('txn_a', { department_id: 'dept_fin_ops' }),
      txn('txn_b', { accounting_date: '2025-03-31' }),
      txn('txn_c', { department_id: null }),
      txn('txn_d', { department_id: 'dept_fin_ops' }),
      txn('txn_new', { date: '2025-03-11' }),
    ],
    tombstones: [
      { id: 'txn_e', deleted: true },
      { id: 'txn_f', deleted: true },
    ],
    mode: 'incremental',
    dir,
    system: 1900,
    flags: {},
  });
  const by = Object.fromEntries(out.updates.map((u) => [u.key, u.values]));
  // A pulled value that moves takes the row's check with it (the check covers the values as pulled).
  const checkOf = (t: Transaction) => transactionRow(t, dir, 1900)[idx(COL.rowCheck)];
  expect(by.txn_a).toEqual({
    [COL.department]: 'Co > Finance > Operations',
    [COL.pulledDepartment]: 'Co > Finance > Operations',
    [COL.rowCheck]: checkOf(txn('txn_a', { department_id: 'dept_fin_ops' })),
  });
  expect(by.txn_b).toEqual({
    [COL.accountingDate]: serial('2025-03-31'),
    [COL.pulledAccountingDate]: serial('2025-03-31'),
    [COL.rowCheck]: checkOf(txn('txn_b', { accounting_date: '2025-03-31' })),
  });
  expect(by.txn_c[COL.department]).toBeUndefined();
  expect(by.txn_c[COL.pulledDepartment]).toBeNull();
  expect(by.txn_c[COL.pushStatus]).toBe("Changed upstream since you edited — review (server now: Department (none)). Your edit is kept and is sent on the next push");
  expect(by.txn_d).toEqual({ [COL.pulledDepartment]: 'Co > Finance > Operations', [COL.rowCheck]: checkOf(txn('txn_d', { department_id: 'dept_fin_ops' })) });
  expect(out.deletes).toEqual(['txn_e']);
  expect(by.txn_f[COL.pushStatus]).toBe('Deleted upstream — this edit cannot be sent; delete the row');
  expect(out.appends.map((r) => r[idx(COL.id)])).toEqual(['txn_new']);
  expect(out.flags).toEqual({
    txn_c: { kind: 'upstream', message: expect.stringMatching(/^Changed upstream/) },
    txn_f: { kind: 'deleted', message: expect.stringMatching(/^Deleted upstream/) },
  });
  expect([...out.newlyUpstream]).toEqual(['txn_c']);

  // restricted: rows not in the table are not added; a later entry for the same id wins.
  const r2 = reconcile({ view: v, upserts: [txn('txn_new'), txn('txn_a', { merchant: 'Old' }), txn('txn_a', { merchant: 'New' })], tombstones: [], mode: 'restricted', dir, system: 1900, flags: {} });
  expect(r2.appends).toEqual([]);
  expect(r2.updates.find((u) => u.key === 'txn_a')?.values[COL.merchant]).toBe('New');
});

test('journal: small entries in add-in storage, bound to company and key; an older version\'s entries in the workbook are only listed', async () => {
  const store = new MemorySecretStore();
  const gw = new MemoryGateway();
  const owner = { company: 'comp_1', keyFingerprint: 'fp_1', startedBy: 'Acme' };
  const journal = openJournal({ store, gateway: gw, bindingId: 'b1', owner, now: () => 1 });
  const body = { transaction_ids: ['txn_1', 'txn_2'], updates: { department_id: null } };
  const entry = await journal.add({ idempotencyKey: 'k1', kind: 'edit', body });
  expect(entry).toEqual({
    idempotencyKey: 'k1',
    bindingId: 'b1',
    company: 'comp_1',
    keyFingerprint: 'fp_1',
    startedBy: 'Acme',
    kind: 'edit',
    update: { department_id: null },
    rows: 2,
    digest: await bodyDigest(body),
    createdAt: 1,
  });
  // Nothing in the workbook, no ids in storage.
  expect(await gw.readSetting(legacyJournalKey('b1'))).toBeUndefined();
  const stored = (await store.get(journalStorageKey('comp_1', 'b1')))!;
  expect(stored).not.toContain('txn_1');
  await journal.recordJobId(entry, 'job_1');
  expect(await journal.entries()).toEqual([{ ...entry, jobId: 'job_1' }]);
  // The digest is of the canonical body: the key order of the update does not change it.
  expect(await bodyDigest({ transaction_ids: ['a'], updates: { department_id: 'x', accounting_date: null } })).toBe(
    await bodyDigest({ transaction_ids: ['a'], updates: { accounting_date: null, department_id: 'x' } }),
  );
  await journal.remove(['k1']);
  expect(await journal.entries()).toEqual([]);
  expect(await store.get(journalStorageKey('comp_1', 'b1'))).toBeUndefined();

  // An earlier version kept the journal in the workbook's settings: listed (to be discarded), never resumed.
  await gw.writeSetting(legacyJournalKey('b1'), ['old']);
  await gw.writeSetting(legacyJournalEntryKey('old'), { idempotencyKey: 'old', kind: 'edit', body: { transaction_ids: ['t1', 't2', 't3'], updates: {} }, createdAt: 5 });
  expect(await journal.legacy()).toEqual([{ idempotencyKey: 'old', kind: 'edit', rows: 3, createdAt: 5 }]);
  await journal.remove(['old']);
  expect(await gw.readSetting(legacyJournalKey('b1'))).toBeUndefined();
  expect(await gw.readSetting(legacyJournalEntryKey('old'))).toBeUndefined();
});
