// Local checks (no call), review groups and costs, single-row PATCH, and an edited row deleted upstream.

import type { Transaction } from '../../src/api';
import { addMonths, isoToSerial } from '../../src/engine/dates';
import { COL, MSG } from '../../src/engine/transactions';
import type { MemoryGateway } from '../../src/excel/memoryGateway';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { jobErrors, newWorkbook, note, report, rig, rowById, sandboxJobs, sandboxToday, sleep, typeInto, usageDelta, type Rig } from './support';

let sb: TestSandbox;
let wb: MemoryGateway;
let companyId: string;
let r: Rig;
let bindingId: string;
let table: string;
const rows: Transaction[] = [];
let pathOf: (id: string) => string;
let leafIds: string[] = [];
let notAssignable: string;
let today: string;

const serial = (iso: string) => {
  const s = isoToSerial(iso, 1900);
  if (!s.ok) throw new Error(s.error);
  return s.value;
};

beforeAll(async () => {
  sb = await startSandbox();
  wb = newWorkbook();
  companyId = sb.companies['growth-admin'];
  r = await rig(sb, wb);
  today = sandboxToday(sb);
  const window = { start_date: addMonths(today, -11), end_date: addMonths(today, -10) };
  ({ bindingId, table } = await r.engine.pull(window));
  for await (const t of r.client.transactions.iterate(window)) rows.push(t);
  const { data } = await r.client.departments.list();
  const byId = new Map(data.map((d) => [d.id, d]));
  pathOf = (id: string): string => (byId.get(id)!.parent_id ? `${pathOf(byId.get(id)!.parent_id!)} > ${byId.get(id)!.name}` : byId.get(id)!.name);
  const parents = new Set(data.map((d) => d.parent_id));
  leafIds = data.filter((d) => d.assignable && !parents.has(d.id)).map((d) => d.id);
  notAssignable = pathOf(data.find((d) => !d.assignable && !parents.has(d.id))!.id);
});
afterAll(async () => {
  console.log(report.join('\n'));
  await sb?.close();
});

const standard = () => rows.filter((t) => t.transaction_type === 'standard');
const leafNotOf = (...ts: Transaction[]) => leafIds.find((l) => ts.every((t) => t.department_id !== l))!;

test('a department typed by hand that does not exist is marked at once, and nothing is sent', async () => {
  const [a] = standard();
  await typeInto(wb, table, [{ id: a.id, values: { [COL.department]: 'Sales Eest' } }]);
  const { value: plan, calls } = await usageDelta(sb, companyId, () => r.engine.review(bindingId));
  expect(calls).toBe(0);
  expect(plan.invalid).toEqual([{ id: a.id, message: "Unknown department 'Sales Eest' — pick from the list" }]);
  expect(plan.groups).toEqual([]);
  expect(plan.cost.total).toBe(0);
  expect((await rowById(wb, table, a.id))[COL.pushStatus]).toBe("Unknown department 'Sales Eest' — pick from the list");

  // Push sends nothing either: the row is left out, no call is spent.
  const jobsBefore = sandboxJobs(sb, companyId).length;
  const { value: res, calls: pushCalls } = await usageDelta(sb, companyId, () => r.engine.push(bindingId));
  expect(pushCalls).toBe(0);
  expect(res.invalid.map((x) => x.id)).toEqual([a.id]);
  expect(sandboxJobs(sb, companyId)).toHaveLength(jobsBefore);
  note(`bad department typed by hand: review ${calls} calls, push ${pushCalls} calls`);

  // Fixed by hand (any case and spacing of a listed path): the mark goes at the next review.
  const fixed = pathOf(leafNotOf(a)).toUpperCase().replace(/ > /g, '>');
  await typeInto(wb, table, [{ id: a.id, values: { [COL.department]: fixed } }]);
  const plan2 = await r.engine.review(bindingId);
  expect(plan2.invalid).toEqual([]);
  expect((await rowById(wb, table, a.id))[COL.pushStatus]).toBe(MSG.pending);
  // Undo the edit: nothing pending, the status clears.
  await typeInto(wb, table, [{ id: a.id, values: { [COL.department]: (await rowById(wb, table, a.id))[COL.pulledDepartment] as string } }]);
  const plan3 = await r.engine.review(bindingId);
  expect(plan3.edited).toBe(0);
  expect((await rowById(wb, table, a.id))[COL.pushStatus]).toBe('');
});

test('every local rule: transfers and splits, non-assignable departments, the accounting-date window, bad dates', async () => {
  const company = await r.client.company.retrieve();
  const min = company.incorporation.date ?? addMonths(today, -24);
  const transfer = rows.find((t) => t.transaction_type === 'transfer')!;
  const [a, b, c, d] = standard().slice(1, 5);
  await typeInto(wb, table, [
    { id: transfer.id, values: { [COL.department]: pathOf(leafIds[0]) } },
    { id: a.id, values: { [COL.department]: notAssignable } },
    { id: b.id, values: { [COL.accountingDate]: serial(addMonths(min, 0)) - 1 } },
    { id: c.id, values: { [COL.accountingDate]: serial(addMonths(today, 36)) } },
    { id: d.id, values: { [COL.accountingDate]: 'next week' } },
  ]);
  const { value: plan, calls } = await usageDelta(sb, companyId, () => r.engine.review(bindingId));
  expect(calls).toBe(0);
  const msg = Object.fromEntries(plan.invalid.map((x) => [x.id, x.message]));
  expect(msg[transfer.id]).toBe('Transfers cannot be edited — undo the change');
  expect(msg[a.id]).toBe(`Department '${notAssignable}' cannot be assigned (only leaf departments can) — pick from the list`);
  expect(msg[b.id]).toMatch(/^Accounting date .* is outside the allowed range/);
  expect(msg[c.id]).toBe(`Accounting date ${addMonths(today, 36)} is outside the allowed range (${min} to before ${addMonths(today, 36)})`);
  expect(msg[d.id]).toBe("Accounting date 'next week' is not a date — enter a date like 2026-03-31");
  for (const [id, m] of Object.entries(msg)) expect((await rowById(wb, table, id))[COL.pushStatus]).toBe(m);
  // Undo them all.
  const undo = [transfer, a, b, c, d].map((t) => t.id);
  for (const id of undo) {
    const row = await rowById(wb, table, id);
    await typeInto(wb, table, [{ id, values: { [COL.department]: (row[COL.pulledDepartment] as string) || null, [COL.accountingDate]: row[COL.pulledAccountingDate] as number } }]);
  }
  expect((await r.engine.review(bindingId)).edited).toBe(0);
});

test('review groups identical updates and prices them; a one-row group is a PATCH', async () => {
  const [a, b, c, d, e] = standard().slice(5, 10);
  const x = leafNotOf(a, b, e);
  const date = addMonths(today, -1);
  await typeInto(wb, table, [
    { id: a.id, values: { [COL.department]: pathOf(x) } },
    { id: b.id, values: { [COL.department]: pathOf(x) } },
    { id: c.id, values: { [COL.accountingDate]: serial(date) } },
    { id: d.id, values: { [COL.accountingDate]: serial(date) } },
    { id: e.id, values: { [COL.department]: pathOf(x), [COL.accountingDate]: serial(date) } },
  ]);
  const plan = await r.engine.review(bindingId);
  expect(plan.edited).toBe(5);
  const groups = plan.groups.map((g) => ({ description: g.description, rows: g.rows, method: g.method, jobs: g.jobs, calls: g.calls }));
  expect(groups).toEqual([
    { description: `Accounting date → ${date}`, rows: 2, method: 'bulk', jobs: 1, calls: 2 },
    { description: `Department → ${pathOf(x)}`, rows: 2, method: 'bulk', jobs: 1, calls: 2 },
    { description: `Department → ${pathOf(x)}, Accounting date → ${date}`, rows: 1, method: 'patch', jobs: 0, calls: 1 },
  ]);
  // 1 check + 1 PATCH + 2 x (submission + poll) + 1 read-back page.
  expect(plan.cost).toMatchObject({ check: 1, patches: 1, submissions: 2, polls: 2, reread: 1, total: 7 });
  expect(plan.cost.text).toBe('About 7 calls: 1 upstream check, 1 PATCH, 2 job submissions + at least 2 polls, about 1 to re-read the changed rows (failed jobs with over 500 errors: 1 more per 500).');

  const { value: res, calls } = await usageDelta(sb, companyId, () => r.engine.push(bindingId));
  expect(res.patches).toEqual([{ id: e.id, ok: true, status: MSG.updated }]);
  expect(res.jobs.map((j) => j.result)).toEqual(['success', 'success']);
  expect(res.updated).toBe(5);
  for (const t of [a, b, c, d, e]) expect((await rowById(wb, table, t.id))[COL.pushStatus]).toBe(MSG.updated);
  const now = await r.client.transactions.retrieve(e.id);
  expect(now).toMatchObject({ department_id: x, accounting_date: date });
  const row = await rowById(wb, table, e.id);
  expect(row[COL.pulledDepartment]).toBe(pathOf(x));
  expect(row[COL.pulledAccountingDate]).toBe(serial(date));
  expect(calls).toBeGreaterThanOrEqual(plan.cost.total);
  note(`mixed push (2 jobs + 1 PATCH, 5 rows): estimated ${plan.cost.total}, spent ${calls} calls`);
  expect((await r.engine.review(bindingId)).edited).toBe(0);

  // A single row on its own: one PATCH, no job. The row must have a department to clear, so the edit
  // is a real one whatever the seeded history holds.
  const f = standard().slice(10).find((t) => t.department_id !== null)!;
  await typeInto(wb, table, [{ id: f.id, values: { [COL.department]: null } }]);
  const jobsBefore = sandboxJobs(sb, companyId).length;
  const single = await usageDelta(sb, companyId, () => r.engine.push(bindingId));
  expect(single.calls).toBe(2); // check + PATCH
  expect(sandboxJobs(sb, companyId)).toHaveLength(jobsBefore);
  expect((await r.client.transactions.retrieve(f.id)).department_id).toBeNull();
  note(`single-row push (PATCH): ${single.calls} calls (check 1 + PATCH 1)`);
});

test('an edited row deleted upstream: found by the upstream check before sending (default), so it is held and the rest go', async () => {
  const [a, b, c] = standard().slice(12, 15);
  const x = leafNotOf(a, b, c);
  await typeInto(wb, table, [a, b, c].map((t) => ({ id: t.id, values: { [COL.department]: pathOf(x) } })));
  await sb.control(`transactions/${b.id}`, { deleted: true });
  await sleep(1100);
  const { value: res, calls } = await usageDelta(sb, companyId, () => r.engine.push(bindingId));
  expect(res.held).toEqual([{ id: b.id, message: MSG.deletedUpstream }]);
  expect(res.jobs).toHaveLength(1);
  expect(res.jobs[0]).toMatchObject({ result: 'success', rows: 2, updatedCount: 2 });
  expect((await rowById(wb, table, b.id))[COL.pushStatus]).toBe(MSG.deletedUpstream);
  for (const t of [a, c]) expect((await rowById(wb, table, t.id))[COL.pushStatus]).toBe(MSG.updated);
  note(`edited row deleted upstream, caught by the check: ${calls} calls (check 1 + submit 1 + poll(s) + read-back 1)`);
  // The held row is never sent; once its edit is undone, the next review removes it (nothing to keep).
  const again = await r.engine.review(bindingId);
  expect(again.held.map((h) => h.id)).toEqual([b.id]);
  await typeInto(wb, table, [{ id: b.id, values: { [COL.department]: (await rowById(wb, table, b.id))[COL.pulledDepartment] as string } }]);
  const cleared = await r.engine.review(bindingId);
  expect(cleared.held).toEqual([]);
  await expect(rowById(wb, table, b.id)).rejects.toThrow(/no row/);
});

test('without the upstream check, the job fails on the missing target and changes nothing; the next push sorts it out', async () => {
  const unchecked = await rig(sb, wb, { engine: { checkUpstream: false } });
  const [a, b, c] = standard().slice(16, 19);
  const x = leafNotOf(a, b, c);
  await typeInto(wb, table, [a, b, c].map((t) => ({ id: t.id, values: { [COL.department]: pathOf(x) } })));
  await sb.control(`transactions/${b.id}`, { deleted: true });
  const { value: res, calls } = await usageDelta(sb, companyId, () => unchecked.engine.push(bindingId));
  expect(res.check).toBeNull();
  expect(res.jobs[0]).toMatchObject({ result: 'failed', updatedCount: 0, reason: `No such transaction: ${b.id}.` });
  const job = sandboxJobs(sb, companyId).at(-1)!;
  expect(jobErrors(sb, job.id)).toEqual([expect.objectContaining({ code: 'transaction_update_failed', transaction_id: b.id })]);
  expect((await rowById(wb, table, b.id))[COL.pushStatus]).toBe(`No such transaction: ${b.id}.`);
  for (const t of [a, c]) {
    expect((await rowById(wb, table, t.id))[COL.pushStatus]).toBe(`Not applied — 1 other row in the same job failed (No such transaction: ${b.id}.); nothing in that job changed. Push again`);
    expect((await r.client.transactions.retrieve(t.id)).department_id).toBe(t.department_id);
  }
  note(`edited row deleted upstream, no check: the job fails (missing target): ${calls} calls (submit 1 + poll(s))`);

  await sleep(1100);
  const next = await r.engine.push(bindingId);
  expect(next.held.map((h) => h.id)).toEqual([b.id]); // found by the next push's upstream check
  expect(next.jobs[0]).toMatchObject({ result: 'success', updatedCount: 2 });
  expect((await rowById(wb, table, b.id))[COL.pushStatus]).toBe(MSG.deletedUpstream);
});

test('a failed job with more than 500 errors: every error page is read, every row gets its own reason', async () => {
  const unchecked = await rig(sb, wb, { engine: { checkUpstream: false } });
  const x = leafIds[0];
  const targets = standard()
    .slice(30)
    .filter((t) => t.department_id !== x)
    .slice(0, 530);
  expect(targets).toHaveLength(530);
  await typeInto(wb, table, targets.map((t) => ({ id: t.id, values: { [COL.department]: pathOf(x) } })));
  for (const t of targets) await sb.control(`transactions/${t.id}`, { deleted: true });
  const { value: res, calls } = await usageDelta(sb, companyId, () => unchecked.engine.push(bindingId));
  expect(res.jobs[0]).toMatchObject({ result: 'failed', errors: 530, rows: 530 });
  const job = sandboxJobs(sb, companyId).at(-1)!;
  expect(jobErrors(sb, job.id)).toHaveLength(530);
  for (const t of [targets[0], targets[499], targets[529]]) expect((await rowById(wb, table, t.id))[COL.pushStatus]).toBe(`No such transaction: ${t.id}.`);
  // submission + polls + one more page of errors (the first 500 come with the poll that saw the failure).
  note(`failed job with 530 errors: ${calls} calls (submit 1 + poll(s) + 1 extra error page)`);
  expect(calls).toBeGreaterThanOrEqual(3);
});
