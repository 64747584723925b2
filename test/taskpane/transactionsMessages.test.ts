// The Transactions screen's sentences (src/taskpane/transactions/messages.ts), without a sandbox.

import type { GroupSummary, PullResult, PushResult, ShiftResult } from '../../src/engine/transactions';
import { filtersNote, groupLine, pulled, pushed, shifted } from '../../src/taskpane/transactions/messages';

const pull = (over: Partial<PullResult>): PullResult => ({
  bindingId: 'b1',
  table: 'Transactions1',
  sheet: 'Transactions',
  rows: 12345,
  pages: 25,
  incremental: true,
  mutableFilters: [],
  watermark: 0,
  calls: 27,
  ...over,
});

test('a pull: rows with thousands separators, its calls, and how the table refreshes', () => {
  expect(pulled(pull({}))).toBe('Pulled 12,345 transactions into Transactions (27 calls). Refresh will fetch only what changed since.');
  expect(pulled(pull({ rows: 1, calls: null, incremental: false, mutableFilters: ['status'] }))).toBe(
    'Pulled 1 transaction into Transactions. Refresh will re-pull the whole selection: status can change on a transaction, and an incremental sync would miss rows that stop matching.',
  );
});

test('the filters note says the cost and the refresh mode', () => {
  expect(filtersNote({ transaction_type: 'standard' })).toMatch(/Costs 2 calls plus 1 per 500 rows\. Refresh will re-pull everything: transaction_type can change on a transaction\.$/);
  expect(filtersNote({ source_type: 'bank' })).toMatch(/Refresh will be incremental\.$/);
});

// Issue 13: the note started mid-sentence ("2025-12-01 to 2025-12-07, approved. Costs…") and named the
// category by its id.
test('the filters note is whole sentences and names the category by its path', () => {
  expect(filtersNote({})).toBe('Pulls every transaction. Costs 2 calls plus 1 per 500 rows. Refresh will be incremental.');
  expect(filtersNote({ start_date: '2025-12-01', end_date: '2025-12-07', status: 'approved' })).toMatch(
    /^Pulls the transactions matching: 2025-12-01 to 2025-12-07, approved\. Costs 2 calls/,
  );
  expect(filtersNote({ category_id: 'cat_rent', start_date: '2025-01-01' }, 'Operating Expenses > Rent')).toMatch(
    /^Pulls the transactions matching: 2025-01-01 to today, in Operating Expenses > Rent\. /,
  );
  expect(filtersNote({ category_id: 'cat_rent' })).toMatch(/^Pulls the transactions in category cat_rent\. /);
});

test('a push and a shift', () => {
  const res = { updated: 1, pending: 0, invalid: [], held: [], jobs: [], patches: [{ id: 't', ok: true, status: 'Updated' }], resumed: { entries: 0 }, warnings: [], calls: 2 };
  expect(pushed(res as unknown as PushResult)).toEqual({ text: "Pushed: 1 row updated, 0 pending, 0 not sent, 1 single-row update (2 calls). Each row's Push status says what happened.", intent: 'success' });
  const shift = { updated: 3, invalid: [{ id: 'x', message: 'm' }], calls: 4 } as unknown as ShiftResult;
  expect(shifted(shift, -1)).toBe('Shifted 3 rows by -1 month; 1 not sent (4 calls). See Push status.');
  expect(shifted(shift, 2)).toBe('Shifted 3 rows by 2 months; 1 not sent (4 calls). See Push status.');
});

// Issue 35, item 7: a PATCH answered 422 was summarised in green as "Pushed: 0 rows updated, 1 pending".
test('a push the API refused is said as a refusal, with its reason, and never shown as a success', () => {
  const reason = 'accounting_date must be within the allowed range (2019-01-01 to 2027-11-28).';
  const base = { pending: 1, invalid: [], held: [], jobs: [], resumed: { entries: 0 }, warnings: [], calls: 1 };
  const refused = { ...base, updated: 0, patches: [{ id: 't', ok: false, status: reason }] };
  expect(pushed(refused as unknown as PushResult)).toEqual({
    text: `The API refused 1 change: ${reason}. 0 rows updated, 1 pending, 0 not sent, 1 single-row update (1 call). Each row's Push status says what happened.`,
    intent: 'error',
  });
  const job = { rows: 40, result: 'failed', reason: 'category_id is not selectable' };
  const partly = { ...base, updated: 1, pending: 40, jobs: [job], patches: [{ id: 't', ok: true, status: 'Updated' }] };
  expect(pushed(partly as unknown as PushResult)).toMatchObject({ text: expect.stringMatching(/^The API refused 40 changes: category_id is not selectable\. 1 row updated/), intent: 'warning' });
  // A PATCH whose answer never came is not known to be refused: pending, not a refusal.
  const lost = { ...base, updated: 0, patches: [{ id: 't', ok: false, unknown: true, status: 'Not confirmed (connection lost)' }] };
  expect(pushed(lost as unknown as PushResult)).toMatchObject({ text: expect.stringMatching(/^Pushed: 0 rows updated, 1 pending/), intent: 'warning' });
});

test('a group of the review: one PATCH, or bulk jobs', () => {
  const g = { description: 'Department → Sales', rows: 1, method: 'patch', jobs: 0, calls: 1 } as GroupSummary;
  expect(groupLine(g)).toBe('Department → Sales: 1 row — one PATCH (1 call)');
  expect(groupLine({ ...g, rows: 6000, method: 'bulk', jobs: 2, calls: 4 })).toBe('Department → Sales: 6,000 rows — 2 bulk jobs (4+ calls: submission and polls)');
});
