// The push log sheet on both gateways (the memory one, and OfficeGateway through Microsoft's client library
// against the fake Excel): made on the first entry and protected; every later entry appended with the
// protection lifted and put back; the API's text written as text, never a formula; followed when the user
// renames its sheet, made again when the user deletes it.
import { appendLogEntry, entriesOfMarks, logTimes, openLog, recentEntries, type PushLogEntry } from '../../../src/engine/pushLog/log';
import { HOSTILE_TEXT, type Harness } from '../../excel/contract';
import { memoryHarness, officeHarness } from '../../excel/harnesses';
import { OLDEST } from '../../excel/officeJs';

const AT = Date.UTC(2026, 2, 5, 13, 12, 9); // 14:12:09 in Paris (winter time)

function entry(overrides: Partial<PushLogEntry> = {}): PushLogEntry {
  return {
    action: 'Push',
    at: AT,
    timeZone: 'Europe/Paris',
    connection: 'Northwind books',
    company: { id: 'comp_1', name: 'Northwind Analytics' },
    keyFingerprint: 'fp_1a2b3c',
    table: 'Transactions_2026_03',
    changes: [
      { transaction: 'txn_1', field: 'Department', before: 'Company > Sales (dept_1)', requested: 'Company > Ops (dept_2)', after: 'Company > Ops (dept_2)', sentAs: 'PATCH', outcome: 'Applied', reason: '' },
      { transaction: 'txn_2', field: 'Accounting date', before: '2026-01-31', requested: '2029-03-01', after: '2026-01-31', sentAs: 'PATCH', outcome: 'Refused', reason: 'accounting_date must be before 2029-01-01.' },
    ],
    ...overrides,
  };
}

for (const [label, make] of [
  ['MemoryGateway', () => memoryHarness()],
  ['OfficeGateway through office-js on Windows', () => officeHarness()],
  // No typed values there (ExcelApi 1.10): text cells are '@' before the text lands.
  ['OfficeGateway through office-js on the oldest Excel admitted', () => officeHarness({}, { host: OLDEST })],
] as const) {
  describe(`the push log on ${label}`, () => {
    let h: Harness;
    beforeEach(() => {
      h = make();
    });
    const rows = async () => (await h.gateway.readTable('FinPushLog')).rows;

    test('the first entry makes the log on a sheet of its own, protected; later ones are appended and it stays protected', async () => {
      expect(await appendLogEntry(h.gateway, entry())).toEqual({ entry: 1, sheet: 'Push log' });
      expect(h.inspect.sheetNames()).toEqual(['Sheet1', 'Push log']);
      expect(h.inspect.activeSheet()).toBe('Sheet1');
      expect(await h.gateway.isSheetProtected('Push log')).toBe(true);
      expect(() => h.inspect.type('Push log', 'K2', 'txn_forged')).toThrow();
      expect(await appendLogEntry(h.gateway, entry({ action: 'Shift' }))).toEqual({ entry: 2, sheet: 'Push log' });
      expect(await h.gateway.isSheetProtected('Push log')).toBe(true);
      const table = await h.gateway.readTable('FinPushLog');
      expect(table.columns).toEqual(['Entry', 'Action', 'Resumes', 'Local time', 'Time zone', 'UTC', 'Connection', 'Company', 'Key fingerprint', 'Table', 'Transaction', 'Field', 'Before', 'Requested', 'After', 'Sent as', 'Outcome', 'Reason']);
      expect(table.rows[0]).toEqual([1, 'Push', '', '2026-03-05 14:12:09', 'Europe/Paris (UTC+01:00)', '2026-03-05 13:12:09 UTC', 'Northwind books', 'Northwind Analytics (comp_1)', 'fp_1a2b3c', 'Transactions_2026_03', 'txn_1', 'Department', 'Company > Sales (dept_1)', 'Company > Ops (dept_2)', 'Company > Ops (dept_2)', 'PATCH', 'Applied', '']);
      expect(table.rows.map((r) => [r[0], r[1], r[10], r[16]])).toEqual([
        [1, 'Push', 'txn_1', 'Applied'],
        [1, 'Push', 'txn_2', 'Refused'],
        [2, 'Shift', 'txn_1', 'Applied'],
        [2, 'Shift', 'txn_2', 'Refused'],
      ]);
      const recent = await recentEntries(h.gateway, 5);
      expect(recent.entries.map((e) => [e.entry, e.action, e.when, e.counts.Applied, e.counts.Refused])).toEqual([
        [2, 'Shift', '2026-03-05 14:12:09 Europe/Paris (UTC+01:00)', 1, 1],
        [1, 'Push', '2026-03-05 14:12:09 Europe/Paris (UTC+01:00)', 1, 1],
      ]);
      expect(await openLog(h.gateway)).toBe('Push log');
      expect(h.inspect.activeSheet()).toBe('Push log');
    });

    test("the API's text, and the user's names, are written as text: never a formula", async () => {
      const hostile = HOSTILE_TEXT.map((text) => ({ transaction: text, field: 'Department', before: text, requested: text, after: text, sentAs: text, outcome: 'Refused' as const, reason: text }));
      await appendLogEntry(h.gateway, entry({ connection: HOSTILE_TEXT[0], company: { id: HOSTILE_TEXT[1], name: HOSTILE_TEXT[2] }, keyFingerprint: HOSTILE_TEXT[3], table: HOSTILE_TEXT[4], changes: hostile }));
      const read = await rows();
      expect(read.map((r) => [r[10], r[12], r[13], r[14], r[15], r[17]])).toEqual(HOSTILE_TEXT.map((t) => [t, t, t, t, t, t]));
      expect(read[0][6]).toBe(HOSTILE_TEXT[0]);
      expect(read[0][7]).toBe(`${HOSTILE_TEXT[2]} (${HOSTILE_TEXT[1]})`);
      expect(read[0][8]).toBe(HOSTILE_TEXT[3]);
      for (let r = 2; r <= HOSTILE_TEXT.length + 1; r++) {
        for (const col of 'BCDEFGHIJKLMNOPQR') expect(h.inspect.cell('Push log', `${col}${r}`).formula).toBeUndefined();
      }
    });

    test('a renamed log sheet is followed; a deleted one is made again; a run that stopped before sending says why', async () => {
      await appendLogEntry(h.gateway, entry());
      h.inspect.renameSheet('Push log', 'Audit trail');
      expect(await appendLogEntry(h.gateway, entry())).toEqual({ entry: 2, sheet: 'Audit trail' });
      expect(await h.gateway.isSheetProtected('Audit trail')).toBe(true);
      expect((await rows()).length).toBe(4);
      h.inspect.deleteSheet('Audit trail');
      expect(await appendLogEntry(h.gateway, entry({ changes: [], stopped: 'No answer from the API.' }))).toEqual({ entry: 3, sheet: 'Push log' });
      expect((await rows()).map((r) => [r[0], r[16], r[17]])).toEqual([[3, 'Not sent', 'No answer from the API.']]);
      expect(await h.gateway.isSheetProtected('Push log')).toBe(true);
    });

    test('an entry that left jobs unfinished is found by their marks until a resumption finishes them', async () => {
      await appendLogEntry(h.gateway, entry({ unfinished: ['push 1a2b3c4d'] }));
      await appendLogEntry(h.gateway, entry());
      expect(await entriesOfMarks(h.gateway, ['push 1a2b3c4d'])).toEqual([1]);
      await appendLogEntry(h.gateway, entry({ action: 'Resumed push', resumes: [1], unfinished: ['push 1a2b3c4d'] }));
      expect(await entriesOfMarks(h.gateway, ['push 1a2b3c4d'])).toEqual([1]);
      await appendLogEntry(h.gateway, entry({ action: 'Resumed push', resumes: [1], finished: ['push 1a2b3c4d'] }));
      expect(await entriesOfMarks(h.gateway, ['push 1a2b3c4d'])).toEqual([]);
      expect((await rows()).filter((r) => r[1] === 'Resumed push').map((r) => r[2])).toEqual(['Entry 1', 'Entry 1', 'Entry 1', 'Entry 1']);
    });

    test('before the first push there is no log to open, and the pane is told so', async () => {
      expect(await recentEntries(h.gateway)).toEqual({ sheet: null, entries: [] });
      await expect(openLog(h.gateway)).rejects.toThrow('This workbook has no push log yet');
    });
  });
}

test("local time in the user's zone with its offset, summer and winter, and UTC; an unknown zone is UTC", () => {
  expect(logTimes(AT, 'Europe/Paris')).toEqual({ local: '2026-03-05 14:12:09', zone: 'Europe/Paris (UTC+01:00)', utc: '2026-03-05 13:12:09 UTC' });
  expect(logTimes(Date.UTC(2026, 6, 1, 23, 30, 0), 'America/Los_Angeles')).toEqual({ local: '2026-07-01 16:30:00', zone: 'America/Los_Angeles (UTC-07:00)', utc: '2026-07-01 23:30:00 UTC' });
  expect(logTimes(AT, 'Mars/Olympus')).toEqual({ local: '2026-03-05 13:12:09', zone: 'UTC (UTC+00:00)', utc: '2026-03-05 13:12:09 UTC' });
  expect(logTimes(AT)).toMatchObject({ zone: 'UTC (UTC+00:00)' });
});
