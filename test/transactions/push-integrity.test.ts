// A push changes exactly what the user reviewed, to the company the table came from (issue 19): a journal
// found in the workbook, or one of another key, is shown and never sent; a row's identity is the id it was
// pulled with, not an editable cell; a pulled row is always accounted for; a column that is never sent is
// watched and put back; a table refuses to work under another company. Every refusal costs no call.

import { addMonths } from '../../src/engine/dates';
import { isRefusal } from '../../src/engine/refusal';
import { bodyDigest, COL, journalStorageKey, legacyJournalEntryKey, legacyJournalKey, MSG } from '../../src/engine/transactions';
import type { MemoryGateway } from '../../src/excel/memoryGateway';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { newWorkbook, rig, rowById, sandboxJobs, sandboxToday, tableRows, typeInto, usageDelta, type Rig } from './support';

let sb: TestSandbox;
let wb: MemoryGateway;
let r: Rig;
let companyId: string;
let bindingId: string;
let table: string;
let leaves: { id: string; path: string }[] = [];
let standard: string[] = [];

beforeAll(async () => {
  sb = await startSandbox();
  wb = newWorkbook();
  r = await rig(sb, wb);
  companyId = r.companyId;
  const today = sandboxToday(sb);
  ({ bindingId, table } = await r.engine.pull({ start_date: addMonths(today, -5), end_date: addMonths(today, -4) }));
  standard = (await tableRows(wb, table)).filter((x) => x[COL.type] === 'standard').map((x) => String(x[COL.pulledId]));
  const { data } = await r.client.departments.list();
  const byId = new Map(data.map((d) => [d.id, d]));
  const pathOf = (id: string): string => (byId.get(id)!.parent_id ? `${pathOf(byId.get(id)!.parent_id!)} > ${byId.get(id)!.name}` : byId.get(id)!.name);
  const parents = new Set(data.map((d) => d.parent_id));
  leaves = data.filter((d) => d.assignable && !parents.has(d.id)).map((d) => ({ id: d.id, path: pathOf(d.id) }));
});
afterAll(async () => {
  await sb?.close();
});

/** A leaf department the given transactions do not already have. */
async function leafNotOf(...ids: string[]) {
  const now = await Promise.all(ids.map((id) => r.client.transactions.retrieve(id)));
  return leaves.find((l) => now.every((t) => t.department_id !== l.id))!;
}

test('a journal left in the workbook (an earlier version, or a crafted file) is listed, never sent, and can be discarded', async () => {
  // 25 real transactions that are not rows of this table, with an update to send.
  const outside = (await r.client.transactions.list({ start_date: addMonths(sandboxToday(sb), -12), end_date: addMonths(sandboxToday(sb), -11), limit: 100 })).data
    .filter((t) => t.transaction_type === 'standard')
    .slice(0, 25);
  expect(outside).toHaveLength(25);
  const dept = leaves[0];
  await wb.writeSetting(legacyJournalKey(bindingId), ['crafted-key']);
  await wb.writeSetting(legacyJournalEntryKey('crafted-key'), {
    idempotencyKey: 'crafted-key',
    bindingId,
    kind: 'edit',
    body: { transaction_ids: outside.map((t) => t.id), updates: { department_id: dept.id } },
    createdAt: 1,
  });
  const jobsBefore = sandboxJobs(sb, companyId).length;
  const { value: plan, calls: reviewCalls } = await usageDelta(sb, companyId, () => r.engine.review(bindingId));
  expect(reviewCalls).toBe(0);
  expect(plan.unfinished).toEqual([expect.objectContaining({ idempotencyKey: 'crafted-key', rows: 25, resumable: false, startedBy: 'this workbook' })]);
  expect(plan.unfinished[0].note).toMatch(/never sent from there/);

  const { calls } = await usageDelta(sb, companyId, async () => {
    await r.engine.push(bindingId);
    await r.engine.resume(bindingId, ['crafted-key']);
  });
  expect(calls).toBe(0);
  expect(sandboxJobs(sb, companyId)).toHaveLength(jobsBefore);
  for (const t of outside.slice(0, 3)) expect((await r.client.transactions.retrieve(t.id)).department_id).toBe(t.department_id);

  await r.engine.discard(bindingId, ['crafted-key']);
  expect(await wb.readSetting(legacyJournalKey(bindingId))).toBeUndefined();
  expect(await r.engine.unfinished(bindingId)).toEqual([]);
});

test("an unfinished push of another key, or one the table does not show, is shown and never sent", async () => {
  const [a, b] = standard.slice(0, 2);
  const update = { department_id: leaves[1].id };
  const body = { transaction_ids: [a, b], updates: update };
  const entry = (key: string, keyFingerprint: string, digest: string) => ({
    idempotencyKey: key,
    bindingId,
    company: companyId,
    keyFingerprint,
    startedBy: 'A colleague',
    kind: 'edit',
    update,
    rows: 2,
    digest,
    createdAt: Date.now() - 60_000,
  });
  await r.journal.set(
    journalStorageKey(companyId, bindingId),
    JSON.stringify([
      entry('other-key', 'fingerprint-of-someone-else', await bodyDigest(body)),
      // This key's, but naming rows the table does not show with that edit: its body cannot be rebuilt.
      entry('unbuildable', r.fingerprint, await bodyDigest({ transaction_ids: ['txn_nope', 'txn_nada'], updates: update })),
    ]),
  );
  const unfinished = await r.engine.unfinished(bindingId);
  expect(unfinished.map((u) => [u.idempotencyKey, u.resumable])).toEqual([
    ['other-key', false],
    ['unbuildable', false],
  ]);
  expect(unfinished[0].note).toMatch(/^Started with another API key \(A colleague\)/);
  expect(unfinished[1].note).toMatch(/no longer shows exactly the rows it sent/);
  const jobsBefore = sandboxJobs(sb, companyId).length;
  const { calls } = await usageDelta(sb, companyId, () => r.engine.resume(bindingId, ['other-key', 'unbuildable']));
  expect(calls).toBe(0);
  expect(sandboxJobs(sb, companyId)).toHaveLength(jobsBefore);
  await r.engine.discard(bindingId, ['other-key', 'unbuildable']);
  expect(await r.journal.get(journalStorageKey(companyId, bindingId))).toBeUndefined();
});

test('an edited Id, a copied row and a cleared Id are refused on their rows before any call; a row without identity is named', async () => {
  const [a, b, c, d, e] = standard.slice(2, 7);
  const dept = await leafNotOf(a, b, c, d);
  // a's Id typed over with b's, a department edit on it: never sent to b (or to a).
  await typeInto(wb, table, [{ id: a, values: { [COL.id]: b, [COL.department]: dept.path } }]);
  // c copied below the table with another department: two rows say they are c.
  const read = await wb.readTable(table);
  const copy = [...read.rows.find((row) => row[read.columns.indexOf(COL.pulledId)] === c)!];
  copy[read.columns.indexOf(COL.department)] = dept.path;
  await wb.appendRows(table, [copy as (string | number | null)[]]);
  // d's Id cleared, with an edit: accounted for, not skipped as a blank row.
  await typeInto(wb, table, [{ id: d, values: { [COL.id]: null, [COL.department]: dept.path } }]);
  // e's far-right columns cleared: it can only be named by its position.
  await typeInto(wb, table, [{ id: e, values: { [COL.pulledId]: null, [COL.rowCheck]: null } }]);

  const { value: plan, calls: reviewCalls } = await usageDelta(sb, companyId, () => r.engine.review(bindingId));
  expect(reviewCalls).toBe(0);
  const why = Object.fromEntries(plan.invalid.map((x) => [x.id, x.message]));
  expect(why[a]).toBe(`Id changed to '${b}' — put back ${a}: a row is pushed by the id it was pulled with`);
  expect(why[c]).toBe(`This row appears twice in the table (${c}) — delete the copy; neither is sent until then`);
  expect(why[d]).toBe(`Id cleared — put back ${d}: a row is pushed by the id it was pulled with`);
  expect(plan.lost).toHaveLength(1);
  expect(plan.lost[0].message).toMatch(/^Table row \d+ lost its Pulled id/);
  expect(plan.groups).toEqual([]);
  expect((await rowById(wb, table, d))[COL.pushStatus]).toBe(why[d]);

  const { value: res, calls } = await usageDelta(sb, companyId, () => r.engine.push(bindingId));
  expect(calls).toBe(0);
  expect(res.jobs).toEqual([]);
  expect(res.patches).toEqual([]);
  for (const id of [a, b, c, d]) expect((await r.client.transactions.retrieve(id)).department_id).not.toBe(dept.id);

  // Put back as the messages say: the Ids typed back, the copy deleted (the user deletes the row they
  // pasted: here by its position, the last), the far-right cells of e restored.
  const pulledOf = async (id: string) => ((await rowById(wb, table, id))[COL.pulledDepartment] as string) || null;
  await typeInto(wb, table, [
    { id: a, values: { [COL.id]: a, [COL.department]: await pulledOf(a) } },
    { id: d, values: { [COL.id]: d, [COL.department]: await pulledOf(d) } },
  ]);
  await wb.deleteRowsByKey(table, COL.department, [dept.path]);
  const original = (await r.client.transactions.retrieve(e)).id;
  const shown = await wb.readTable(table);
  const eRow = shown.rows.findIndex((row) => row[shown.columns.indexOf(COL.id)] === original);
  const check = await import('../../src/engine/transactions/rowCheck');
  const values = Object.fromEntries(shown.columns.map((c, i) => [c, shown.rows[eRow][i]]));
  values[COL.pulledId] = e;
  await wb.updateRowsByKey(table, COL.id, [{ key: e, values: { [COL.pulledId]: e, [COL.rowCheck]: check.rowCheck((c) => values[c]) } }]);
  const plan2 = await r.engine.review(bindingId);
  expect(plan2.invalid).toEqual([]);
  expect(plan2.lost).toEqual([]);
  expect(plan2.edited).toBe(0);
});

test('a typed-over Amount is refused, never sent, and put back by Refresh; the edit beside it then goes', async () => {
  const [f] = standard.slice(10, 11);
  const before = await r.client.transactions.retrieve(f);
  const dept = await leafNotOf(f);
  await typeInto(wb, table, [{ id: f, values: { [COL.amount]: 12345.67, [COL.department]: dept.path } }]);
  const plan = await r.engine.review(bindingId);
  expect(plan.invalid.find((x) => x.id === f)?.message).toMatch(/^Changed in a column that is never sent/);
  expect(plan.groups.flatMap((g) => g.ids)).not.toContain(f);

  // Refresh: the sync page, and one read of the row to put it back.
  const { value: refreshed, calls: refreshCalls } = await usageDelta(sb, companyId, () => r.engine.refresh(bindingId));
  expect(refreshCalls).toBe((refreshed.pages ?? 0) + 1);
  const row = await rowById(wb, table, f);
  expect(row[COL.amount]).toBe(before.amount_cents / 100);
  expect(row[COL.department]).toBe(dept.path); // the user's edit survives

  const plan2 = await r.engine.review(bindingId);
  expect(plan2.invalid.find((x) => x.id === f)).toBeUndefined();
  expect(plan2.groups.flatMap((g) => g.ids)).toContain(f);
});

test('a table pulled from one company refuses to refresh, review or push under another, and says whose it is', async () => {
  const other = await rig(sb, wb, { label: 'startup-admin' });
  const startup = sb.companies['startup-admin'];
  const before = [await sb.usage(companyId), await sb.usage(startup)];
  for (const action of [() => other.engine.refresh(bindingId), () => other.engine.review(bindingId), () => other.engine.push(bindingId)]) {
    const e = await action().then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(isRefusal(e)).toBe(true);
    expect(e).toMatchObject({ code: 'other_company', title: 'This table belongs to another company' });
    expect((e as Error).message).toContain(companyId);
    expect((e as Error).message).toContain(startup);
  }
  expect([await sb.usage(companyId), await sb.usage(startup)]).toEqual(before);
  expect(MSG.updated).toBe('Updated');
});
