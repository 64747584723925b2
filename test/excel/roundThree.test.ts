// Issue 36 ("Real Excel, round three"): what real Excel gives the add-in, through Microsoft's own client library
// (the real-client harness over the fake workbook), where the add-in assumed otherwise.
import { readBudgetAt, selectedBudget, serialMonths } from '../../src/engine/budgets/kept';
import { readBudget } from '../../src/engine/budgets/sheet';
import { appendLogEntry, entriesOfMarks, LOG_COLUMNS, recentEntries, type PushLogEntry } from '../../src/engine/pushLog/log';
import { GatewayError, type WorkbookGateway } from '../../src/engine/ports/workbook';
import { FakeCalc } from './fakeCalc';
import { officeHarness } from './harnesses';
import { OLDEST } from './officeJs';

async function refusalOf(p: Promise<unknown>): Promise<Error & { code?: string; title?: string }> {
  try {
    await p;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal');
}

describe('item 1: whole columns and rows selected', () => {
  test('a budget selected by its column headers (Budget!A:C) is refused by its size before a million rows are read', async () => {
    const h = officeHarness();
    await h.gateway.writeGrid({ kind: 'newSheet', name: 'Budget' }, { values: [['Category', '2026-01', '2026-02'], ['Rent', 100, 100]] });
    h.inspect.select('Budget', 'A:C');
    const address = await selectedBudget(h.gateway);
    expect(address).toBe('Budget!A:C');
    const before = h.fake.syncs.length;
    const refusal = await refusalOf(readBudgetAt(h.gateway, address));
    expect(refusal.message).toBe("The budget's range holds 1,048,576 rows by 3 columns: select only the budget (its months across the top, its lines below).");
    // Nothing of the column was read.
    expect(h.fake.syncs.length).toBe(before);
  });

  test('a whole column handed to the budget reader (FIN.BUDGET over Budget!A:C) says what to select, not an internal error', () => {
    const column = Array.from({ length: 1_048_576 }, (_, i) => (i === 0 ? ['Category', '2026-01', '2026-02'] : ['', 0, 0]));
    const read = readBudget(column, { monthOfSerial: serialMonths(1900) });
    expect(read).toEqual({ ok: false, error: "The budget's range holds 1,048,576 rows by 3 columns: select only the budget (its months across the top, its lines below)." });
  });
});

describe('item 3: an error cell in a budget', () => {
  test('Excel calls no FIN function over a range holding an error (the fake as Excel); the budget check names the cell first', async () => {
    const h = officeHarness();
    await h.gateway.writeGrid({ kind: 'newSheet', name: 'Budget' }, { values: [['Category', '2026-01', 'Var %'], ['Rent', 100, '#DIV/0!'], ['', '', '']] });
    await h.gateway.writeFormula('Budget!A5', '=FIN.BUDGET(Budget!A1:C2,"Rent","2026-01")');
    const calc = new FakeCalc(h.fake, () => 100);
    calc.calculateSheet(h.fake.sheet('Budget'));
    expect(calc.calls).toEqual([]);
    expect(h.fake.cell('Budget', 'A5').value).toBe('#DIV/0!');
    const refusal = await refusalOf(readBudgetAt(h.gateway, 'Budget!A1:C2'));
    expect(refusal.message).toContain('Budget!C2 (under "Var %") shows #DIV/0!');
  });
});

describe('item 5: a selected chart', () => {
  test('getSelectedRange throws while a chart is selected (office-js#2268): the pane says a chart is selected, not several areas', async () => {
    const h = officeHarness();
    await h.gateway.writeGrid({ kind: 'newSheet', name: 'Board' }, { values: [['Month', 'Revenue'], ['Jan', 5]] });
    h.fake.selectedChart = h.fake.userChart('Board', 'B2:B2', 'D2:H10');
    const refusal = await refusalOf(h.gateway.getSelection());
    expect(refusal.message).toBe('A chart is selected: select cells and try again.');
    h.inspect.select('Board', 'A1:B2,D4');
    expect((await refusalOf(h.gateway.getSelection())).message).toContain('not several areas');
  });
});

describe('item 4: protection of the push log', () => {
  const entry = (): PushLogEntry => ({
    action: 'Push',
    at: Date.UTC(2026, 2, 5, 13, 12, 9),
    timeZone: 'UTC',
    connection: 'Books',
    company: { id: 'comp_1' },
    keyFingerprint: 'fp_1',
    table: 'Transactions',
    unfinished: ['push 1a2b3c4d'],
    changes: [{ transaction: 'txn_1', field: 'Department', before: 'A', requested: 'B', after: 'B', sentAs: 'PATCH', outcome: 'Applied', reason: '' }],
  });

  test('Excel refusing to protect the log again after an append (office-js#6784): the entry keeps its number and its jobs, and the user is told to protect it', async () => {
    const h = officeHarness();
    await appendLogEntry(h.gateway, entry());
    const refusing: WorkbookGateway = Object.create(h.gateway, {
      protectSheet: { value: () => Promise.reject(new GatewayError('Protected', 'You cannot perform the requested operation.')) },
    });
    expect(await appendLogEntry(refusing, entry())).toEqual({
      entry: 2,
      sheet: 'Push log',
      warning: 'Entry 2 is in the push log, but Excel did not protect the sheet "Push log" again: protect it from Review > Protect Sheet (no password).',
    });
    h.fake.protectSheet('Push log');
    expect((await appendLogEntry(h.gateway, entry())).entry).toBe(3);
    expect((await h.gateway.readTable('FinPushLog')).rows.map((r) => r[0])).toEqual([1, 2, 3]);
    expect(await entriesOfMarks(h.gateway, ['push 1a2b3c4d'])).toEqual([1]);
  });

  test("a password the user put on the log's sheet: Excel refuses to lift it without, and the add-in says what to do; nothing is half-written", async () => {
    const h = officeHarness();
    await appendLogEntry(h.gateway, entry());
    await h.gateway.unprotectSheet('Push log');
    h.fake.protectSheet('Push log', 'secret');
    const refusal = await refusalOf(appendLogEntry(h.gateway, entry()));
    expect(refusal.message).toBe(
      'The sheet "Push log" is protected with a password, so the add-in cannot add to the push log: remove the password (Review > Unprotect Sheet), then push again; the add-in protects the sheet again without one.',
    );
    expect((await h.gateway.readTable('FinPushLog')).rows.map((r) => r[0])).toEqual([1]);
    expect(h.fake.sheet('Push log').protection).toMatchObject({ protected: true, password: 'secret' });
  });
});

describe('item 7: text in the push log where the text format does not hold', () => {
  test("on the oldest Excel admitted (no typed values), the API's words never become formulas in the log: the text writer enters them behind an apostrophe", async () => {
    // Microsoft promises the text format for typing, not for values written by the API (fakeExcel: textFormatHolds).
    const h = officeHarness({ textFormatHolds: false }, { host: OLDEST });
    const hostile = ['=HYPERLINK("http://evil.example","click")', '=IMPORTXML("http://evil.example","//a")', "=cmd|' /C calc'!A0", '+44 20 7946 0000', '-ACME Ltd', '@SUM(1,2)'];
    const changes = hostile.map((text) => ({ transaction: text, field: 'Department', before: text, requested: text, after: text, sentAs: text, outcome: 'Refused' as const, reason: text }));
    for (let i = 0; i < 2; i++) await appendLogEntry(h.gateway, { action: 'Push', at: 0, connection: hostile[0], company: { id: hostile[1] }, keyFingerprint: hostile[3], table: hostile[4], changes });
    const rows = (await h.gateway.readTable('FinPushLog')).rows;
    expect(rows.map((r) => [r[10], r[12], r[13], r[14], r[15], r[17]])).toEqual([...hostile, ...hostile].map((t) => [t, t, t, t, t, t]));
    for (let r = 2; r <= rows.length + 1; r++) for (const col of 'BCDEFGHIJKLMNOPQR') expect(h.fake.cell('Push log', `${col}${r}`).formula).toBeUndefined();
    expect(h.fake.cell('Push log', 'K2').numberFormat).toBe('@');
  });
});

describe('item 6: the push log found by what it is, not by a pointer a file can forge', () => {
  const entry = (): PushLogEntry => ({
    action: 'Push',
    at: Date.UTC(2026, 2, 5, 13, 12, 9),
    timeZone: 'UTC',
    connection: 'Books',
    company: { id: 'comp_1' },
    keyFingerprint: 'fp_1',
    table: 'Transactions',
    changes: [{ transaction: 'txn_1', field: 'Department', before: 'A', requested: 'B', after: 'B', sentAs: 'PATCH', outcome: 'Applied', reason: '' }],
  });
  const forged = (table: string, sheet: string, next: number) => ({
    table,
    sheet,
    next,
    recent: [{ entry: 1, action: 'Push', when: '2026-03-01 09:00:00 UTC (UTC+00:00)', connection: 'Alice', company: 'Acme', counts: { Applied: 25, Refused: 0, 'Failed job': 0, 'Not sent': 0, Interrupted: 0 } }],
    unfinished: [],
  });

  test('a log on a hidden sheet is set aside: the entry goes to a new visible log, with a word, and the fabricated entries are not listed', async () => {
    const h = officeHarness();
    await appendLogEntry(h.gateway, entry());
    await h.gateway.writeGrid({ kind: 'newSheet', name: 'Audit', activate: false }, { values: [['x']] });
    const hidden = await h.gateway.createTable({ name: 'Shadow', columns: [...LOG_COLUMNS], rows: [[1, 'Push', ...Array(16).fill('')]], target: { kind: 'anchor', sheet: 'Audit', cell: 'A3' } });
    h.fake.sheet('Audit').visibility = 'Hidden';
    await h.gateway.writeSetting('pushLog', forged(hidden.name, 'Audit', 2));
    expect((await recentEntries(h.gateway, 5)).entries).toEqual([]);
    const written = await appendLogEntry(h.gateway, entry());
    expect(written.warning).toBe(`The push log this workbook pointed at is not the add-in's (the table ${hidden.name} on the sheet "Audit" is on a hidden sheet): it was left as it is, and a new log was started on the sheet "${written.sheet}".`);
    expect(h.fake.sheet(written.sheet).visibility).toBe('Visible');
    expect((await h.gateway.readTable(hidden.name)).rows).toHaveLength(1);
    expect((await recentEntries(h.gateway, 5)).entries.map((e) => [e.entry, e.connection])).toEqual([[1, 'Books']]);
  });

  test("a summary in the settings that the log's rows do not bear out is not listed", async () => {
    const h = officeHarness();
    await appendLogEntry(h.gateway, entry());
    const stored = (await h.gateway.readSetting('pushLog')) as { recent: unknown[] };
    await h.gateway.writeSetting('pushLog', { ...stored, recent: [...forged('', '', 0).recent, ...stored.recent] } as never);
    expect((await recentEntries(h.gateway, 5)).entries.map((e) => [e.entry, e.connection, e.counts.Applied])).toEqual([[1, 'Books', 1]]);
  });

  test("pointed at the user's own table, the log never unprotects, appends to or protects it", async () => {
    const h = officeHarness();
    const own = await h.gateway.createTable({ name: 'Expenses', columns: [{ name: 'Entry', kind: 'number' }, { name: 'Note', kind: 'text' }], rows: [[1, 'mine']], target: { kind: 'newSheet', name: 'Mine' } });
    await h.gateway.writeSetting('pushLog', forged(own.name, 'Mine', 2));
    const written = await appendLogEntry(h.gateway, entry());
    expect(written.sheet).not.toBe('Mine');
    expect(written.warning).toContain("does not have the log's columns");
    expect((await h.gateway.readTable('Expenses')).rows).toEqual([[1, 'mine']]);
    expect(await h.gateway.isSheetProtected('Mine')).toBe(false);
  });
});

describe('item 11: a filtered log', () => {
  test('the user filtered the log (its protection allows it): filters are cleared before the entry is appended, as delete and trim do', async () => {
    const h = officeHarness();
    const entry: PushLogEntry = { action: 'Push', at: 0, connection: 'Books', company: { id: 'comp_1' }, keyFingerprint: 'fp', table: 'T', changes: [] };
    await appendLogEntry(h.gateway, entry);
    h.fake.filterTable('FinPushLog');
    expect(await appendLogEntry(h.gateway, entry)).toEqual({ entry: 2, sheet: 'Push log' });
    expect((await h.gateway.readTable('FinPushLog')).rows.map((r) => r[0])).toEqual([1, 2]);
    expect(h.fake.tables.find((t) => t.name === 'FinPushLog')!.filtered).toBe(false);
  });
});
