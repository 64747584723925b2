/** @jest-environment ./test/support/jsdom-with-fetch.js */
// The Share tab against the sandbox: a statement block inserted by the pane and FIN cells beside it (their
// results shown as Excel would have calculated them) become a values copy next to the sheet, with the note
// on top, the block's values and number formats, no formula and no call spent; the user's sheet is unchanged.
// With two companies connected, each copy's note names the companies of its own sheet (issue 25, item 6).
import * as fin from '../../src/functions/functions';
import '../support/customFunctions';
import { parseQualified, qualify } from '../../src/engine/ports/address';
import { appendLogEntry } from '../../src/engine/pushLog/log';
import { connectBehind, connected, openTab, renderPane, screen, startSandbox, waitFor, type PaneHarness, type TestSandbox } from './harness';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A FIN cell's invocation as Excel makes it: its address given (the functions ask for it). */
const at = (address: string) => ({ isInValuePreview: false, address }) as unknown as CustomFunctions.Invocation;

async function insertBlock(h: PaneHarness): Promise<{ sheet: string; box: ReturnType<typeof parseQualified>['box'] }> {
  await h.user.click(screen.getByRole('button', { name: 'Insert' }));
  await screen.findByText(/^Inserted the /, {}, { timeout: 30000 });
  const [binding] = await h.gateway.listBindings();
  return parseQualified(binding.address);
}

async function callsSpent(h: PaneHarness): Promise<number> {
  const client = await h.services.runtime.getClient();
  return client!.meter.count();
}

test('Share makes a values copy of the block and the FIN cells: values and formats, no formula, no call', async () => {
  const h = renderPane(sb, { timeZone: 'UTC' });
  try {
    await connected(h, sb);
    const { sheet, box } = await insertBlock(h);
    await h.gateway.writeFormula(`'${sheet}'!H2`, '=FIN.TOTAL("Revenue","2026-10")');
    await h.gateway.writeFormula(`'${sheet}'!H4`, '=FIN.CATEGORIES()');
    // Calculated as Excel calculates them (each with its cell's address): the note knows whose figures they show.
    await fin.total('Revenue', '2026-10', undefined, undefined, undefined, undefined, at(`'${sheet}'!H2`));
    await fin.categories(undefined, at(`'${sheet}'!H4`));
    h.gateway.showResult(sheet, 'H2', 4321.5);
    h.gateway.showResult(sheet, 'H4', [['Revenue', 4321.5], ['Rent', -1200]]);
    const before = await callsSpent(h);

    await openTab(h, 'Share');
    const box1 = await screen.findByRole('checkbox', { name: new RegExp(`^${escape(sheet)} \\(2 FIN formulas, 1 statement block\\)$`) }, { timeout: 15000 });
    expect((box1 as HTMLInputElement).checked).toBe(true);
    await h.user.click(screen.getByRole('button', { name: 'Make a values copy' }));
    await screen.findByText('Values copies made', {}, { timeout: 15000 });

    // The copy is the next tab, named after the sheet (cut to Excel's 31 characters).
    const copy = h.gateway.sheetNames()[h.gateway.sheetNames().indexOf(sheet) + 1];
    expect(copy).toMatch(/\(values\)$/);
    expect(h.gateway.activeSheetName()).toBe(copy);
    const read = await h.gateway.readSheet(copy);
    expect(read.formulas.flat().filter((f) => f !== null)).toEqual([]);
    expect(h.gateway.cell(copy, 'A1').value).toMatch(new RegExp(`^Values as of \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC from ${escape(h.services.session.connected()!.companyName)}$`));
    // The block two rows lower (the note and a blank row above), every value and number format as on the sheet.
    const original = await h.gateway.readRange(qualify(sheet, box));
    const copied = await h.gateway.readRange(qualify(copy, { ...box, row: box.row + 2 }));
    expect(copied.values).toEqual(original.values);
    expect(copied.numberFormats).toEqual(original.numberFormats);
    expect(h.gateway.cell(copy, 'H4').value).toBe(4321.5);
    expect([h.gateway.cell(copy, 'H6').value, h.gateway.cell(copy, 'I7').value]).toEqual(['Revenue', -1200]);
    // The working sheet keeps its formulas and its block; nothing was fetched.
    expect(h.gateway.cell(sheet, 'H2').formula).toBe('=FIN.TOTAL("Revenue","2026-10")');
    expect(await h.gateway.listBindings()).toHaveLength(1);
    expect(await callsSpent(h)).toBe(before);
    expect(screen.getByText(/Your sheets are unchanged\. To send them on their own: right-click/)).toBeTruthy();
  } finally {
    h.unmount();
  }
});

test('Share warns about cells still computing and errors before the copy, and copies nothing until asked', async () => {
  const h = renderPane(sb, { timeZone: 'UTC' });
  try {
    await connected(h, sb);
    const { sheet } = await insertBlock(h);
    await h.gateway.writeFormula(`'${sheet}'!H2`, '=FIN.TOTAL("Revenue","2026-10")');
    h.gateway.showResult(sheet, 'H2', '#BUSY!');
    await h.gateway.writeFormula(`'${sheet}'!H3`, '=FIN.TOTAL("No such category","2026-10")');
    h.gateway.showResult(sheet, 'H3', '#N/A');
    const sheets = h.gateway.sheetNames();

    await openTab(h, 'Share');
    await screen.findByText('Check before sharing', {}, { timeout: 15000 });
    expect(screen.getByText(`${sheet}: 1 cell still computing (#BUSY! in H2). The copy would keep #BUSY!: wait until every cell shows a figure.`)).toBeTruthy();
    expect(screen.getByText(`${sheet}: 1 formula showing an error (H3). The copy keeps the error as it is.`)).toBeTruthy();
    expect(h.gateway.sheetNames()).toEqual(sheets);

    // Unticking the sheet leaves nothing to copy.
    await h.user.click(screen.getByRole('checkbox', { name: new RegExp(`^${escape(sheet)} `) }));
    await waitFor(() => expect((screen.getByRole('button', { name: 'Make a values copy' }) as HTMLButtonElement).disabled).toBe(true));
    expect(screen.queryByText('Check before sharing')).toBeNull();
  } finally {
    h.unmount();
  }
});

test('with two companies, each copy\'s note names the companies of its sheet: a FIN sheet of the second company, a consolidated sheet of both', async () => {
  const h = renderPane(sb, { timeZone: 'UTC' });
  try {
    await connected(h, sb);
    await h.paneStorage.set(`company:${sb.companies['growth2-admin']}`, JSON.stringify({ name: 'Westbrook Software', plan: 'growth' }));
    await connectBehind(sb, 'growth2-admin', 'Westbrook');
    const own = h.services.session.connected()!.companyName;
    await h.user.click(screen.getByRole('button', { name: 'Insert consolidated' }));
    await screen.findByText(/^Inserted the consolidated statement at /, {}, { timeout: 30000 });
    const [group] = (await h.gateway.listBindings()).filter((b) => b.kind === 'consolidated');
    const groupSheet = parseQualified(group.address).sheet;

    // A sheet of Westbrook's figures: a FIN cell naming it, calculated as Excel calculates it (its address given).
    await h.gateway.writeGrid({ kind: 'newSheet', name: 'West' }, { values: [['Revenue']] });
    await h.gateway.writeFormula('West!B1', '=FIN.PNL("Revenue","2026-Q3",,"Westbrook")');
    const revenue = await fin.pnl('Revenue', '2026-Q3', undefined, 'Westbrook', undefined, at('West!B1'));
    h.gateway.showResult('West', 'B1', revenue);

    await openTab(h, 'Share');
    await screen.findByRole('checkbox', { name: /^West \(1 FIN formula\)$/ }, { timeout: 15000 });
    await screen.findByRole('button', { name: 'Make 2 values copies' });
    await h.user.click(screen.getByRole('button', { name: 'Make 2 values copies' }));
    await screen.findByText('Values copies made', {}, { timeout: 15000 });
    const note = (sheet: string) => h.gateway.cell(h.gateway.sheetNames()[h.gateway.sheetNames().indexOf(sheet) + 1], 'A1').value;
    expect(note(groupSheet)).toMatch(new RegExp(` UTC from ${escape(own)} and Westbrook Software$`));
    expect(note('West')).toMatch(/ UTC from Westbrook Software$/);
    // Excel on the web's way out is the whole file: what it carries is said.
    expect(screen.getByText(/unhide and delete the hidden sheet FinLists .* it still carries this add-in's settings \(its blocks' records, with company and department ids/)).toBeTruthy();
  } finally {
    h.unmount();
  }
});

test('the push log is offered apart and unticked: left out of the copies unless the user ticks it (issue 28, item 4)', async () => {
  const h = renderPane(sb, { timeZone: 'UTC' });
  try {
    await connected(h, sb);
    const { sheet } = await insertBlock(h);
    await appendLogEntry(h.gateway, {
      action: 'Push',
      at: Date.UTC(2026, 10, 20),
      connection: 'Northwind',
      company: { id: 'comp_1' },
      keyFingerprint: 'fp',
      table: 'Transactions',
      changes: [{ transaction: 'txn_1', field: 'Department', before: 'Ops', requested: 'Sales', after: 'Sales', sentAs: 'PATCH', outcome: 'Applied', reason: '' }],
    });
    await openTab(h, 'Share');
    const withLog = await screen.findByRole('checkbox', { name: /^Also copy the push log \(sheet Push log: who pushed what to the books, and when\)\. Left out unless ticked\.$/ }, { timeout: 15000 });
    expect((withLog as HTMLInputElement).checked).toBe(false);
    expect(screen.queryByRole('checkbox', { name: /^Push log \(/ })).toBeNull();
    await h.user.click(screen.getByRole('button', { name: 'Make a values copy' }));
    await screen.findByText('Values copies made', {}, { timeout: 15000 });
    expect(h.gateway.sheetNames().filter((n) => n.endsWith('(values)'))).toHaveLength(1);
    expect(h.gateway.sheetNames()).not.toContain('Push log (values)');

    await h.user.click(screen.getByRole('checkbox', { name: new RegExp(`^${escape(sheet)} \\(`) }));
    await h.user.click(withLog);
    await h.user.click(screen.getByRole('button', { name: 'Make a values copy' }));
    await waitFor(() => expect(h.gateway.sheetNames()).toContain('Push log (values)'));
    expect(await h.gateway.isSheetProtected('Push log (values)')).toBe(true);
    expect(h.gateway.sheetNames().filter((n) => n.endsWith('(values)'))).toHaveLength(2);
  } finally {
    h.unmount();
  }
});
