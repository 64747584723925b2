// 12,000 edits of three kinds (6,000 + 4,000 + 2,000 rows) on the Growth demo's full transaction table:
// grouped by identical update and cut at 5,000 ids per job, they go out as 2 + 1 + 1 = 4 jobs.

import { addMonths, isoToSerial } from '../../src/engine/dates';
import { COL, MSG, journalStorageKey } from '../../src/engine/transactions';
import type { MemoryGateway } from '../../src/excel/memoryGateway';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import { newWorkbook, note, report, rig, sandboxJobs, sandboxToday, tableRows, typeInto, usageDelta } from './support';

jest.setTimeout(600_000);

let sb: TestSandbox;
let wb: MemoryGateway;

beforeAll(async () => {
  sb = await startSandbox();
  wb = newWorkbook();
});
afterAll(async () => {
  console.log(report.join('\n'));
  await sb?.close();
});

test('12,000 edits of 3 kinds go out as 2 + 1 + 1 jobs within the 5,000 limit', async () => {
  const r = await rig(sb, wb, { engine: { poll: { initialDelayMs: 500, maxDelayMs: 4000, maxPolls: 100 } } });
  const companyId = r.companyId;
  const pulled = await usageDelta(sb, companyId, () => r.engine.pull({}));
  const { bindingId, table } = pulled.value;
  note(`full pull of the Growth demo: ${pulled.value.rows} rows, ${pulled.value.pages} pages, ${pulled.calls} calls (2 reference + pages)`);
  expect(pulled.value.rows).toBeGreaterThan(19_000); // ~20,000 seeded, a few hidden or deleted

  // The table is what the user edits; its ids and pulled values drive the choice of rows.
  const rows = await tableRows(wb, table);
  const { data: departments } = await r.client.departments.list();
  const byId = new Map(departments.map((d) => [d.id, d]));
  const pathOf = (id: string): string => (byId.get(id)!.parent_id ? `${pathOf(byId.get(id)!.parent_id!)} > ${byId.get(id)!.name}` : byId.get(id)!.name);
  const parents = new Set(departments.map((d) => d.parent_id));
  const [deptA, deptB] = departments.filter((d) => d.assignable && !parents.has(d.id)).map((d) => pathOf(d.id));
  const today = sandboxToday(sb);
  const date = addMonths(today, -3);
  const dateSerial = (isoToSerial(date, 1900) as { ok: true; value: number }).value;

  const standard = rows.filter((x) => x[COL.type] === 'standard');
  const kindA = standard.filter((x) => x[COL.pulledDepartment] !== deptA).slice(0, 6000);
  const usedA = new Set(kindA.map((x) => x[COL.id]));
  const kindB = standard.filter((x) => !usedA.has(x[COL.id]) && x[COL.pulledDepartment] !== deptB).slice(0, 4000);
  const usedAB = new Set([...usedA, ...kindB.map((x) => x[COL.id])]);
  const kindC = standard.filter((x) => !usedAB.has(x[COL.id]) && x[COL.pulledAccountingDate] !== dateSerial).slice(0, 2000);
  expect([kindA.length, kindB.length, kindC.length]).toEqual([6000, 4000, 2000]);

  await typeInto(wb, table, [
    ...kindA.map((x) => ({ id: String(x[COL.id]), values: { [COL.department]: deptA } })),
    ...kindB.map((x) => ({ id: String(x[COL.id]), values: { [COL.department]: deptB } })),
    ...kindC.map((x) => ({ id: String(x[COL.id]), values: { [COL.accountingDate]: dateSerial } })),
  ]);

  const plan = await r.engine.review(bindingId);
  expect(plan.edited).toBe(12_000);
  expect(plan.invalid).toEqual([]);
  expect(plan.groups.map((g) => [g.rows, g.method, g.jobs])).toEqual([
    [6000, 'bulk', 2],
    [4000, 'bulk', 1],
    [2000, 'bulk', 1],
  ]);
  // 1 check + 4 submissions + at least 4 polls. The 12,000 rows' new values are known when the jobs
  // succeed: reading them back (24 pages) is left to the next sync (reread.ts).
  expect(plan.cost).toMatchObject({ check: 1, patches: 0, submissions: 4, polls: 4, reread: 0, total: 9 });

  // The push journal, in add-in storage: its largest size while the four jobs are out.
  let journalBytes = 0;
  const set = r.journal.set.bind(r.journal);
  r.journal.set = async (key, value) => {
    journalBytes = Math.max(journalBytes, new TextEncoder().encode(value).length);
    return set(key, value);
  };

  const jobsBefore = sandboxJobs(sb, companyId).length;
  const { value: res, calls } = await usageDelta(sb, companyId, () => r.engine.push(bindingId));
  const jobs = sandboxJobs(sb, companyId).slice(jobsBefore);
  // Exactly four submissions: four jobs, none over 5,000.
  expect(jobs).toHaveLength(4);
  expect(jobs.map((j) => j.matched_count)).toEqual([5000, 1000, 4000, 2000]);
  expect(jobs.every((j) => j.status === 'success')).toBe(true);
  expect(jobs.map((j) => j.updated_count)).toEqual([5000, 1000, 4000, 2000]);
  expect(res.jobs.map((j) => j.rows)).toEqual([5000, 1000, 4000, 2000]);
  expect(res.updated).toBe(12_000);
  expect(res.pending).toBe(0);
  expect(res.reread).toBeNull();

  const after = await tableRows(wb, table);
  const updated = after.filter((x) => x[COL.pushStatus] === MSG.updated);
  expect(updated).toHaveLength(12_000);
  // Every row's pulled values caught up with its edit: nothing left to push.
  expect((await r.engine.review(bindingId)).edited).toBe(0);
  // Spot checks through the API.
  for (const id of [kindA[0][COL.id], kindA[5999][COL.id], kindB[17][COL.id]]) {
    const t = await r.client.transactions.retrieve(String(id));
    expect(pathOf(t.department_id!)).toBe(id === kindB[17][COL.id] ? deptB : deptA);
  }
  expect((await r.client.transactions.retrieve(String(kindC[1999][COL.id]))).accounting_date).toBe(date);

  const polls = calls - (res.check?.pages ?? 0) - 4 - (res.reread?.pages ?? 0);
  note(
    `12,000 edits (6,000 + 4,000 + 2,000): estimated ${plan.cost.total}, spent ${calls} calls = check ${res.check?.pages} + submissions 4 + polls ${polls} (nothing read back)`,
  );
  expect(polls).toBeGreaterThanOrEqual(4);

  // Four entries of what resuming needs (key, job id, update, row count, body digest): no ids.
  note(`push journal for 12,000 edits in 4 jobs: at most ${journalBytes.toLocaleString('en-US')} bytes in add-in storage`);
  expect(journalBytes).toBeGreaterThan(0);
  expect(journalBytes).toBeLessThan(4096);
  expect(await r.journal.get(journalStorageKey(companyId, bindingId))).toBeUndefined();
});
