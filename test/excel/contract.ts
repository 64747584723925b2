/**
 * What every WorkbookGateway must do, observed through the interface and a small inspector of the workbook
 * behind it. Run against OfficeGateway-on-the-fake and MemoryGateway, so the two cannot drift apart.
 */
import type { BindingRecord, ChartSpec, GridWrite, WorkbookGateway } from '../../src/engine/ports/workbook';
import { CHART_TEXT_GUARD } from '../../src/excel/hostRules';
import { GatewayError } from '../../src/engine/ports/workbook';

export interface InspectedCell {
  value: string | number | boolean;
  formula?: string;
  numberFormat: string;
  bold: boolean;
  indent: number;
}

export interface Inspector {
  sheetNames(): string[];
  cell(sheet: string, a1: string): InspectedCell;
  /** 0-based row. */
  outlineLevel(sheet: string, row: number): number;
  /** 0-based column. */
  columnWidth(sheet: string, col: number): number | undefined;
  visibility(sheet: string): string;
  activeSheet(): string;
  validationSource(sheet: string, a1: string): string | undefined;
  /** A cell ("C5") or a range ("B2:D9"). */
  select(sheet: string, a1: string): void;
  /** The defined names, hidden ones too, with the sheet-qualified address each refers to (null: #REF!). */
  names(): { name: string; visible: boolean; address: string | null }[];
  // What a user does in Excel: rows are 1-based, as the user sees them.
  type(sheet: string, a1: string, value: string | number): void;
  insertRows(sheet: string, before: number, count: number): void;
  groupRows(sheet: string, first: number, count: number): void;
  deleteRows(sheet: string, first: number, count: number): void;
  renameSheet(from: string, to: string): void;
  deleteSheet(name: string): void;
  /** The charts on a sheet, what each reads and the values those cells hold now. */
  charts(sheet: string): InspectedChart[];
  /** The user adds a chart of their own (Insert > Chart): one series per row of `source`, over the cells `over`. */
  userChart(sheet: string, source: string, over: string): void;
  /** The user protects a sheet (Review > Protect Sheet, no password). */
  protect(sheet: string): void;
}

export interface InspectedChart {
  name: string;
  title: string;
  /** The cells it covers ("F2:M16"). */
  over: string;
  series: {
    /** The legend text as Excel holds it. */
    name: string;
    /** The name became a formula (a link to a cell) instead of text. */
    linked: boolean;
    /** Sheet-qualified, null for #REF!. */
    values: string | null;
    categories: string | null;
    /** The values its cells hold now. */
    shown: (string | number | boolean)[];
  }[];
}

export interface Harness {
  gateway: WorkbookGateway;
  inspect: Inspector;
}

export type MakeHarness = (options?: { date1904?: boolean }) => Harness;

/** Strings that a careless write turns into formulas, numbers or booleans. */
export const HOSTILE_TEXT = ['=HYPERLINK("http://evil.example","click")', '+44 20 7946 0000', '-ACME Ltd', '@SUM(1,2)', '00123', 'TRUE', '=1+1', "'quoted"];

/** A section as statements lay it out: a heading, its lines (grouped), its total right after them. */
const STATEMENT: GridWrite = {
  values: [
    ['Income statement', null, null],
    [null, 'Jan 2026', 'Feb 2026'],
    ['Revenue', null, null],
    ['Product', 1000, 1100],
    ['Services', 200.5, 200],
    ['Total revenue', 1200.5, 1300],
    ['Net income', 400.5, 450],
  ],
  columnFormats: [null, '#,##0.00;(#,##0.00)', '#,##0.00;(#,##0.00)'],
  cellFormats: [[], [], [], [], [], [], [null, '0.0%']],
  boldRows: [0, 2, 5, 6],
  indentLevels: [0, 0, 0, 1, 1, 0, 0],
  outlineLevels: [0, 0, 0, 1, 1, 0, 0],
  columnWidths: [180, 90, 90],
};

/** Resolves "=FinLists!$A$2:$A$4" to the list items through the inspector. */
export function listItems(inspect: Inspector, source: string): string[] {
  const m = /^=(?:'((?:[^']|'')+)'|([^!]+))!\$?([A-Z]+)\$?(\d+):\$?([A-Z]+)\$?(\d+)$/.exec(source);
  if (!m) throw new Error(`unexpected list source ${source}`);
  const sheet = (m[1] ?? m[2]).replace(/''/g, "'");
  const items: string[] = [];
  for (let r = Number(m[4]); r <= Number(m[6]); r++) items.push(String(inspect.cell(sheet, `${m[3]}${r}`).value));
  return items;
}

async function rejection(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError);
    return e as GatewayError;
  }
  throw new Error('expected a rejection');
}

const txColumns = [
  { name: 'Id', kind: 'text' as const },
  { name: 'Date', kind: 'number' as const, numberFormat: 'yyyy-mm-dd' },
  { name: 'Amount', kind: 'number' as const, numberFormat: '#,##0.00' },
  { name: 'Merchant', kind: 'text' as const, width: 150 },
  { name: 'Department', kind: 'text' as const },
];

export function gatewayContract(label: string, make: MakeHarness): void {
  describe(`WorkbookGateway contract: ${label}`, () => {
    let gw: WorkbookGateway;
    let inspect: Inspector;
    beforeEach(() => {
      ({ gateway: gw, inspect } = make());
    });

    test('writes a grid at an anchor: values, formats, bold, indent, outline, widths', async () => {
      const out = await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, STATEMENT);
      expect(out).toEqual({ sheet: 'Sheet1', address: 'Sheet1!B2:D8', rowCount: 7, columnCount: 3, rowGroups: [{ start: 3, count: 2 }] });
      expect(inspect.cell('Sheet1', 'B2')).toMatchObject({ value: 'Income statement', numberFormat: '@', bold: true });
      expect(inspect.cell('Sheet1', 'C3')).toMatchObject({ value: 'Jan 2026', numberFormat: '@', bold: false });
      expect(inspect.cell('Sheet1', 'B4')).toMatchObject({ value: 'Revenue', numberFormat: '@', bold: true });
      expect(inspect.cell('Sheet1', 'C4')).toMatchObject({ value: '', numberFormat: '#,##0.00;(#,##0.00)', bold: true });
      expect(inspect.cell('Sheet1', 'C7')).toMatchObject({ value: 1200.5, numberFormat: '#,##0.00;(#,##0.00)', bold: true });
      expect(inspect.cell('Sheet1', 'C8')).toMatchObject({ value: 400.5, numberFormat: '0.0%' });
      expect(inspect.cell('Sheet1', 'B3')).toMatchObject({ value: '', numberFormat: 'General' });
      expect(inspect.cell('Sheet1', 'B5')).toMatchObject({ value: 'Product', indent: 1, bold: false });
      expect(inspect.cell('Sheet1', 'B4').indent).toBe(0);
      expect([3, 4, 5, 6].map((r) => inspect.outlineLevel('Sheet1', r))).toEqual([0, 1, 1, 0]);
      expect([1, 2, 3].map((c) => inspect.columnWidth('Sheet1', c))).toEqual([180, 90, 90]);
    });

    test('nested outline levels and ragged rows: a group only where its total is the row right after it', async () => {
      // Excel's +/- sits on the row after a group. Child sits under Parent, whose figures are its subtotal
      // (summary above): not a group of its own. Members A and B fold into Group total: a group.
      await gw.writeGrid(
        { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' },
        {
          values: [['Section'], ['Parent', 10], ['Child', 10, 3], ['Group'], ['Member A', 4], ['Member B', 6], ['Group total', 10], ['Total', 20]],
          outlineLevels: [0, 1, 2, 1, 2, 2, 1, 0],
        },
      );
      expect([0, 1, 2, 3, 4, 5, 6, 7].map((r) => inspect.outlineLevel('Sheet1', r))).toEqual([0, 1, 1, 1, 2, 2, 1, 0]);
      expect(inspect.cell('Sheet1', 'C1')).toMatchObject({ value: '' });
      expect(inspect.cell('Sheet1', 'C3')).toMatchObject({ value: 3 });
    });

    test('a group that would fold into the row below the block is not made', async () => {
      await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [['Section'], ['a', 1], ['b', 2]], outlineLevels: [0, 1, 1] });
      expect([0, 1, 2, 3].map((r) => inspect.outlineLevel('Sheet1', r))).toEqual([0, 0, 0, 0]);
    });

    test('text from the API stays text, wherever it is written', async () => {
      await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: HOSTILE_TEXT.map((t) => [t, 1]) });
      HOSTILE_TEXT.forEach((t, i) => {
        const cell = inspect.cell('Sheet1', `A${i + 1}`);
        expect(cell.formula).toBeUndefined();
        expect(cell.value).toBe(t);
      });
      const t = await gw.createTable({
        name: 'Tx',
        columns: txColumns,
        rows: HOSTILE_TEXT.map((m, i) => [`t${i}`, 46000, 1, m, m]),
        target: { kind: 'anchor', sheet: 'Sheet1', cell: 'E1' },
      });
      await gw.appendRows(t.name, [['t-new', 46001, 2, HOSTILE_TEXT[0], HOSTILE_TEXT[2]]]);
      await gw.updateRowsByKey(t.name, 'Id', [{ key: 't1', values: { Department: '=SUM(A:A)' } }]);
      const back = await gw.readTable(t.name);
      expect(back.rows.map((r) => r[3])).toEqual([...HOSTILE_TEXT, HOSTILE_TEXT[0]]);
      expect(back.rows[1][4]).toBe('=SUM(A:A)');
      expect(back.rows[HOSTILE_TEXT.length][4]).toBe('-ACME Ltd');
      for (let r = 2; r <= HOSTILE_TEXT.length + 2; r++) expect(inspect.cell('Sheet1', `H${r}`).formula).toBeUndefined();
    });

    test('text longer than a cell holds is cut to 32,767 characters instead of failing the write', async () => {
      const memo = 'm'.repeat(40_000);
      await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [[memo]] });
      expect(String(inspect.cell('Sheet1', 'A1').value)).toHaveLength(32_767);
      const t = await gw.createTable({ name: 'Tx', columns: txColumns, rows: [['t1', 1, 1, memo, '']], target: { kind: 'anchor', sheet: 'Sheet1', cell: 'C1' } });
      await gw.appendRows(t.name, [['t2', 1, 1, memo, '']]);
      await gw.updateRowsByKey(t.name, 'Id', [{ key: 't1', values: { Department: memo } }]);
      const rows = (await gw.readTable(t.name)).rows;
      expect(rows.map((r) => String(r[3]).length)).toEqual([32_767, 32_767]);
      expect(String(rows[0][4])).toHaveLength(32_767);
    });

    test('new sheets get unique, legal names and are activated', async () => {
      const a = await gw.writeGrid({ kind: 'newSheet', name: 'P&L 2026' }, { values: [['x']] });
      const b = await gw.writeGrid({ kind: 'newSheet', name: 'p&l 2026' }, { values: [['y']] });
      const c = await gw.writeGrid({ kind: 'newSheet', name: 'Balance sheet: Q1/Q2 [draft] with a very long name' }, { values: [['z']] });
      expect(a.sheet).toBe('P&L 2026');
      expect(b.sheet).toBe('p&l 2026 (2)');
      expect(c.sheet.length).toBeLessThanOrEqual(31);
      expect(c.sheet).not.toMatch(/[:\\/?*[\]]/);
      expect(a.address).toBe("'P&L 2026'!A1");
      expect(inspect.sheetNames()).toEqual(['Sheet1', a.sheet, b.sheet, c.sheet]);
      expect(inspect.activeSheet()).toBe(c.sheet);
      await gw.writeGrid({ kind: 'newSheet', name: 'Quiet', activate: false }, { values: [['q']] });
      expect(inspect.activeSheet()).toBe(c.sheet);
    });

    test('a refresh in place clears the old block and its outline', async () => {
      const first = await gw.writeGrid(
        { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' },
        { values: [['a'], ['b'], ['c', 3], ['d', 4]], outlineLevels: [0, 1, 2, 0], boldRows: [3] },
      );
      expect([0, 1, 2, 3].map((r) => inspect.outlineLevel('Sheet1', r))).toEqual([0, 1, 2, 0]);
      await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [['a2', 10], ['b2', 20]] }, { replace: { address: first.address, outlineDepth: 2 } });
      expect(inspect.cell('Sheet1', 'A1').value).toBe('a2');
      expect(inspect.cell('Sheet1', 'A4')).toMatchObject({ value: '', bold: false });
      expect([0, 1, 2, 3].map((r) => inspect.outlineLevel('Sheet1', r))).toEqual([0, 0, 0, 0]);
    });

    test("a refresh in place ungroups the rows the block grouped, and only those: the user's own group around it stays", async () => {
      const grid = { values: [['Section'], ['a', 1], ['b', 2], ['Total', 3], ['Net', 3]], outlineLevels: [0, 1, 1, 0, 0] };
      const levels = () => Array.from({ length: 11 }, (_, r) => inspect.outlineLevel('Sheet1', r));
      const first = await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A3' }, grid);
      expect(first.rowGroups).toEqual([{ start: 1, count: 2 }]);
      inspect.groupRows('Sheet1', 1, 10);
      expect(levels()).toEqual([1, 1, 1, 2, 2, 1, 1, 1, 1, 1, 0]);
      const second = await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A3' }, grid, { replace: { address: first.address, rowGroups: first.rowGroups } });
      expect(levels()).toEqual([1, 1, 1, 2, 2, 1, 1, 1, 1, 1, 0]);
      const flat = await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A3' }, { values: [['flat', 1]] }, { replace: { address: second.address, rowGroups: second.rowGroups } });
      expect(flat.rowGroups).toBeUndefined();
      expect(levels()).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
    });

    describe('blocks with a defined name, which Excel moves with their cells', () => {
      const NAME = 'FinBlock_statement_1';
      const write = (cell: string, grid: GridWrite = STATEMENT, sheet = 'Sheet1') => gw.writeGrid({ kind: 'anchor', sheet, cell }, grid, { name: NAME });

      test('the name is workbook-scoped and hidden, and locates the block (compared case-insensitively)', async () => {
        const out = await write('B2');
        expect(out.address).toBe('Sheet1!B2:D8');
        expect(inspect.names()).toEqual([{ name: NAME, visible: false, address: 'Sheet1!B2:D8' }]);
        const found = { state: 'found', sheet: 'Sheet1', address: 'Sheet1!B2:D8', rowCount: 7, columnCount: 3 };
        expect(await gw.locateBlock(NAME)).toEqual(found);
        expect(await gw.locateBlock(NAME.toUpperCase())).toEqual(found);
        expect(await gw.locateBlock('FinBlock_never_written')).toEqual({ state: 'missing' });
      });

      test('a name users write in formulas (the reporting period) is visible; writing its cell again keeps it', async () => {
        await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B1' }, { values: [['2026-10']] }, { name: 'FIN_PERIOD', nameVisible: true });
        expect(inspect.names()).toEqual([{ name: 'FIN_PERIOD', visible: true, address: 'Sheet1!B1' }]);
        await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B1' }, { values: [['2026-11']] });
        expect(inspect.names()).toEqual([{ name: 'FIN_PERIOD', visible: true, address: 'Sheet1!B1' }]);
        expect(inspect.cell('Sheet1', 'B1')).toMatchObject({ value: '2026-11', numberFormat: '@' });
      });

      test('rows inserted above move it, rows inserted inside grow it, rows below leave it; a renamed sheet is followed', async () => {
        await write('B2');
        inspect.insertRows('Sheet1', 1, 3);
        expect(await gw.locateBlock(NAME)).toMatchObject({ address: 'Sheet1!B5:D11', rowCount: 7 });
        expect(inspect.cell('Sheet1', 'B5').value).toBe('Income statement');
        inspect.insertRows('Sheet1', 12, 4);
        expect(await gw.locateBlock(NAME)).toMatchObject({ address: 'Sheet1!B5:D11' });
        inspect.renameSheet('Sheet1', 'P&L 2026');
        expect(await gw.locateBlock(NAME)).toEqual({ state: 'found', sheet: 'P&L 2026', address: "'P&L 2026'!B5:D11", rowCount: 7, columnCount: 3 });
        inspect.insertRows('P&L 2026', 7, 2);
        expect(await gw.locateBlock(NAME)).toMatchObject({ address: "'P&L 2026'!B5:D13", rowCount: 9 });
      });

      test('a rewrite with the same name points it at the new extent, smaller or larger', async () => {
        const first = await write('B2');
        inspect.insertRows('Sheet1', 1, 2);
        const moved = await gw.locateBlock(NAME);
        if (moved.state !== 'found') throw new Error('not found');
        const smaller = await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B4' }, { values: [['a', 1], ['b', 2]] }, { replace: { address: moved.address }, name: NAME });
        expect(smaller.address).toBe('Sheet1!B4:C5');
        expect(await gw.locateBlock(NAME)).toMatchObject({ address: 'Sheet1!B4:C5', rowCount: 2, columnCount: 2 });
        expect(inspect.cell('Sheet1', 'D10').value).toBe('');
        await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B4' }, STATEMENT, { replace: { address: smaller.address }, name: NAME.toLowerCase() });
        expect(inspect.names()).toHaveLength(1);
        expect(await gw.locateBlock(NAME)).toMatchObject({ address: 'Sheet1!B4:D10', rowCount: 7 });
        expect(first.rowCount).toBe(7);
      });

      test('rows deleted inside shrink it; all its rows or its sheet deleted make it #REF! (broken); a deleted name is missing', async () => {
        await write('B2');
        inspect.deleteRows('Sheet1', 4, 2);
        expect(await gw.locateBlock(NAME)).toMatchObject({ state: 'found', address: 'Sheet1!B2:D6', rowCount: 5 });
        inspect.deleteRows('Sheet1', 1, 3);
        expect(await gw.locateBlock(NAME)).toMatchObject({ state: 'found', address: 'Sheet1!B1:D3', rowCount: 3 });
        inspect.deleteRows('Sheet1', 1, 3);
        expect(await gw.locateBlock(NAME)).toEqual({ state: 'broken' });

        await gw.writeGrid({ kind: 'newSheet', name: 'Cash flow' }, STATEMENT, { name: 'FinBlock_statement_2' });
        inspect.deleteSheet('Cash flow');
        expect(await gw.locateBlock('FinBlock_statement_2')).toEqual({ state: 'broken' });

        await gw.deleteName(NAME);
        await gw.deleteName('FinBlock_never_written');
        expect(await gw.locateBlock(NAME)).toEqual({ state: 'missing' });
        expect(inspect.names().map((n) => n.name)).toEqual(['FinBlock_statement_2']);
      });

      test('names Excel would refuse are refused before anything is written', async () => {
        for (const bad of ['A1', 'has space', 'C1_FOO', 'R1C1', 'r', 'TRUE', '1st', 'x'.repeat(256), 'a-b']) {
          const error = await rejection(gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, { values: [['x']] }, { name: bad }));
          expect(error.code).toBe('InvalidInput');
        }
        expect(inspect.cell('Sheet1', 'B2').value).toBe('');
        expect(inspect.names()).toEqual([]);
        await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, { values: [['x']] }, { name: '_R2D2.v1?\\x' });
        expect(inspect.names().map((n) => n.name)).toEqual(['_R2D2.v1?\\x']);
      });

      test("nameRange names the user's own cells, visible, leaving them as they are; again it points the name elsewhere; rows inserted inside grow it", async () => {
        inspect.type('Sheet1', 'B2', 'Rent');
        inspect.type('Sheet1', 'C2', 1200);
        await gw.nameRange('Sheet1!B1:D4', 'Budget_2026');
        expect(inspect.names()).toEqual([{ name: 'Budget_2026', visible: true, address: 'Sheet1!B1:D4' }]);
        expect(inspect.cell('Sheet1', 'B2').value).toBe('Rent');
        expect(inspect.cell('Sheet1', 'C2').value).toBe(1200);
        expect(await gw.locateBlock('budget_2026')).toEqual({ state: 'found', sheet: 'Sheet1', address: 'Sheet1!B1:D4', rowCount: 4, columnCount: 3 });
        inspect.insertRows('Sheet1', 3, 2);
        expect(await gw.locateBlock('Budget_2026')).toMatchObject({ address: 'Sheet1!B1:D6', rowCount: 6 });
        await gw.nameRange('Sheet1!B1:E6', 'Budget_2026');
        expect(inspect.names()).toEqual([{ name: 'Budget_2026', visible: true, address: 'Sheet1!B1:E6' }]);
        for (const bad of ['FY2026', 'has space', 'TRUE']) expect((await rejection(gw.nameRange('Sheet1!B1:D4', bad))).code).toBe('InvalidInput');
        expect(inspect.names()).toHaveLength(1);
      });
    });

    test('findContent: the smallest range around values and formulas in a range; blanks and formats alone are null', async () => {
      await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, { values: [[null, null], [null, null]], columnFormats: ['0.00', '0.00'] });
      expect(await gw.findContent('Sheet1!A1:F10')).toBeNull();
      inspect.type('Sheet1', 'C5', 'my note');
      inspect.type('Sheet1', 'E7', 12);
      expect(await gw.findContent('Sheet1!A1:F10')).toBe('Sheet1!C5:E7');
      expect(await gw.findContent('Sheet1!D6')).toBeNull();
      await gw.writeFormula('Sheet1!H2', '=1+1');
      expect(await gw.findContent('Sheet1!G1:H3')).toBe('Sheet1!H2');
    });

    test('readRange returns values and number formats', async () => {
      const out = await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, STATEMENT);
      const read = await gw.readRange(out.address);
      expect(read.address).toBe('Sheet1!B2:D8');
      expect(read.values[5]).toEqual(['Total revenue', 1200.5, 1300]);
      expect(read.values[1][0]).toBe('');
      expect(read.numberFormats[2]).toEqual(['@', '#,##0.00;(#,##0.00)', '#,##0.00;(#,##0.00)']);
    });

    test('tables: create, read back, unique names', async () => {
      const rows = [
        ['t1', 46023, 12.5, 'Acme', 'Sales'],
        ['t2', 46024, -3, 'Globex', null],
        ['t3', null, 0, '', 'Ops'],
      ];
      const t = await gw.createTable({ name: 'Transactions', columns: txColumns, rows, target: { kind: 'newSheet', name: 'Transactions' }, style: 'TableStyleLight9' });
      expect(t).toEqual({ name: 'Transactions', sheet: 'Transactions', address: 'Transactions!A1:E4' });
      const back = await gw.readTable('Transactions');
      expect(back.columns).toEqual(['Id', 'Date', 'Amount', 'Merchant', 'Department']);
      expect(back.rows).toEqual([
        ['t1', 46023, 12.5, 'Acme', 'Sales'],
        ['t2', 46024, -3, 'Globex', ''],
        ['t3', '', 0, '', 'Ops'],
      ]);
      expect(inspect.cell('Transactions', 'B2').numberFormat).toBe('yyyy-mm-dd');
      expect(inspect.cell('Transactions', 'A2').numberFormat).toBe('@');
      expect(inspect.columnWidth('Transactions', 3)).toBe(150);
      const again = await gw.createTable({ name: 'Transactions', columns: txColumns, rows: [], target: { kind: 'anchor', sheet: 'Transactions', cell: 'H1' } });
      expect(again.name).toBe('Transactions2');
      expect(again.address).toBe('Transactions!H1:L2');
      expect((await gw.readTable(again.name)).rows).toEqual([]);
    });

    test('tables: append rows (also to an empty table), and what was below moves down', async () => {
      await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A10' }, { values: [['below the table']] });
      const t = await gw.createTable({ name: 'Tx', columns: txColumns, rows: [], target: { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' } });
      await gw.appendRows(t.name, [['t1', 46023, 1, 'A', 'X']]);
      const out = await gw.appendRows(t.name, [
        ['t2', 46024, 2, 'B', 'Y'],
        ['t3', 46025, 3, 'C', null],
      ]);
      expect(out.address).toBe('Sheet1!A1:E4');
      expect((await gw.readTable(t.name)).rows).toEqual([
        ['t1', 46023, 1, 'A', 'X'],
        ['t2', 46024, 2, 'B', 'Y'],
        ['t3', 46025, 3, 'C', ''],
      ]);
      expect(inspect.cell('Sheet1', 'B4').numberFormat).toBe('yyyy-mm-dd');
      expect(inspect.cell('Sheet1', 'A12').value).toBe('below the table');
    });

    test('tables: update and delete by key', async () => {
      const rows = Array.from({ length: 6 }, (_, i) => [`t${i}`, 46000 + i, i, `M${i}`, 'Old']);
      const t = await gw.createTable({ name: 'Tx', columns: txColumns, rows, target: { kind: 'anchor', sheet: 'Sheet1', cell: 'C3' } });
      const up = await gw.updateRowsByKey(t.name, 'Id', [
        { key: 't1', values: { Department: 'Sales', Amount: 99 } },
        { key: 't4', values: { Merchant: 'New', Department: 'Ops' } },
        { key: 'nope', values: { Department: 'x' } },
      ]);
      expect(up).toEqual({ count: 2, missing: ['nope'] });
      const del = await gw.deleteRowsByKey(t.name, 'Id', ['t0', 't3', 'gone']);
      expect(del).toEqual({ count: 2, missing: ['gone'] });
      const back = await gw.readTable(t.name);
      expect(back.rows).toEqual([
        ['t1', 46001, 99, 'M1', 'Sales'],
        ['t2', 46002, 2, 'M2', 'Old'],
        ['t4', 46004, 4, 'New', 'Ops'],
        ['t5', 46005, 5, 'M5', 'Old'],
      ]);
      expect(back.address).toBe('Sheet1!C3:G7');
      expect((await gw.deleteRowsByKey(t.name, 'Id', ['t1', 't2', 't4', 't5'])).count).toBe(4);
      expect((await gw.readTable(t.name)).rows).toEqual([]);
    });

    test('tables: bad input is refused before anything is written', async () => {
      const textInNumber = gw.createTable({ name: 'T', columns: txColumns, rows: [['a', 'not a date', 1, 'm', 'd']], target: { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' } });
      expect((await rejection(textInNumber)).code).toBe('InvalidInput');
      const dup = gw.createTable({ name: 'T', columns: [...txColumns, { name: 'id', kind: 'text' }], rows: [], target: { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' } });
      expect((await rejection(dup)).code).toBe('InvalidInput');
      expect(inspect.cell('Sheet1', 'A1').value).toBe('');
      expect((await rejection(gw.readTable('Missing'))).code).toBe('NotFound');
      expect((await rejection(gw.writeGrid({ kind: 'anchor', sheet: 'Nope', cell: 'A1' }, { values: [[1]] }))).code).toBe('NotFound');
    });

    test('validation lists live on a hidden helper sheet, beyond the 255-character inline limit', async () => {
      const t = await gw.createTable({ name: 'Tx', columns: txColumns, rows: [['t1', 1, 1, 'm', '']], target: { kind: 'anchor', sheet: 'Sheet1', cell: 'A1' } });
      const departments = Array.from({ length: 80 }, (_, i) => `Department number ${i}`);
      departments.push('=NOT A FORMULA');
      await gw.setListValidation(t.name, 'Department', departments);
      const helper = inspect.sheetNames().find((n) => n !== 'Sheet1')!;
      expect(inspect.visibility(helper)).not.toBe('Visible');
      const source = inspect.validationSource('Sheet1', 'E2')!;
      expect(listItems(inspect, source)).toEqual(departments);
      await gw.setListValidation(t.name, 'Merchant', ['Acme', 'Globex']);
      await gw.setListValidation(t.name, 'Department', ['Sales', 'Ops']);
      expect(listItems(inspect, inspect.validationSource('Sheet1', 'E2')!)).toEqual(['Sales', 'Ops']);
      expect(listItems(inspect, inspect.validationSource('Sheet1', 'D2')!)).toEqual(['Acme', 'Globex']);
      await gw.appendRows(t.name, [['t2', 2, 2, 'Acme', 'Sales']]);
      expect(inspect.validationSource('Sheet1', 'E3')).toBe(inspect.validationSource('Sheet1', 'E2'));
      await gw.setListValidation(t.name, 'Department', []);
      expect(inspect.validationSource('Sheet1', 'E2')).toBeUndefined();
    });

    test('date system, selection, activation', async () => {
      expect(await gw.getDateSystem()).toBe(1900);
      expect(await make({ date1904: true }).gateway.getDateSystem()).toBe(1904);
      await gw.writeGrid({ kind: 'newSheet', name: 'Other sheet', activate: false }, { values: [[1]] });
      inspect.select('Other sheet', 'C5');
      expect(await gw.getSelectedCell()).toEqual({ sheet: 'Other sheet', cell: 'C5', address: "'Other sheet'!C5" });
      await gw.activateSheet('Other sheet');
      expect(inspect.activeSheet()).toBe('Other sheet');
      expect((await rejection(gw.activateSheet('Missing'))).code).toBe('NotFound');
    });

    test('getSelection: the selected range and its top-left formula or value', async () => {
      await gw.writeGrid({ kind: 'newSheet', name: 'My sheet', activate: false }, { values: [['Id', 'Amount'], ['t1', 5], ['t2', 7]] });
      inspect.select('My sheet', 'A2:B3');
      expect(await gw.getSelection()).toEqual({
        sheet: 'My sheet',
        address: "'My sheet'!A2:B3",
        rowCount: 2,
        columnCount: 2,
        topLeft: { formula: null, value: 't1' },
      });
      inspect.select('My sheet', 'B3');
      expect(await gw.getSelection()).toMatchObject({ address: "'My sheet'!B3", rowCount: 1, columnCount: 1, topLeft: { formula: null, value: 7 } });
      // The active cell of a range selection is its top-left cell.
      inspect.select('My sheet', 'B2:B3');
      expect(await gw.getSelectedCell()).toEqual({ sheet: 'My sheet', cell: 'B2', address: "'My sheet'!B2" });
      await gw.writeFormula("'My sheet'!C1", '=FIN.TOTAL("Operating Expenses > Rent","2025-Q3")');
      inspect.select('Sheet1', 'A1');
      inspect.select('My sheet', 'C1:D4');
      const sel = await gw.getSelection();
      expect(sel).toMatchObject({ sheet: 'My sheet', rowCount: 4, columnCount: 2, topLeft: { formula: '=FIN.TOTAL("Operating Expenses > Rent","2025-Q3")' } });
      // A blank cell: no formula, an empty value.
      inspect.select('Sheet1', 'Z100');
      expect((await gw.getSelection()).topLeft).toEqual({ formula: null, value: '' });
    });

    test('getSelection of whole columns, whole rows or the whole sheet: Excel writes them as A:C, 5:9 and 1:1048576', async () => {
      // Microsoft, "Work with multiple ranges" (Excel add-ins): a selected column's address is "Sheet1!H:H".
      await gw.writeGrid({ kind: 'newSheet', name: 'My sheet', activate: false }, { values: [['Id', 'Amount'], ['t1', 5]] });
      inspect.select('My sheet', 'A:C');
      expect(await gw.getSelection()).toEqual({ sheet: 'My sheet', address: "'My sheet'!A:C", rowCount: 1_048_576, columnCount: 3, topLeft: { formula: null, value: 'Id' } });
      inspect.select('My sheet', '2:9');
      expect(await gw.getSelection()).toMatchObject({ sheet: 'My sheet', address: "'My sheet'!2:9", rowCount: 8, columnCount: 16_384, topLeft: { value: 't1' } });
      inspect.select('My sheet', '1:1048576');
      expect(await gw.getSelection()).toMatchObject({ sheet: 'My sheet', address: "'My sheet'!1:1048576" });
      expect(await gw.getSelectedCell()).toEqual({ sheet: 'My sheet', cell: 'A1', address: "'My sheet'!A1" });
      inspect.select('My sheet', 'B:B');
      expect(await gw.getSelectedCell()).toEqual({ sheet: 'My sheet', cell: 'B1', address: "'My sheet'!B1" });
    });

    test('a selection of several areas: a clear refusal, not a host error; the active cell still reads', async () => {
      await gw.writeGrid({ kind: 'newSheet', name: 'My sheet', activate: false }, { values: [['Id', 'Amount'], ['t1', 5]] });
      inspect.select('My sheet', 'A1:B2,D4');
      const error = await rejection(gw.getSelection());
      expect(error.code).toBe('InvalidInput');
      expect(error.message).toBe('Excel cannot read this selection: select one block of cells (not several areas) in this workbook and try again.');
      expect(await gw.getSelectedCell()).toEqual({ sheet: 'My sheet', cell: 'A1', address: "'My sheet'!A1" });
    });

    test('writeFormula: a formula in one cell, also in a text-formatted one; other formats stay', async () => {
      await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [['label', 5]], cellFormats: [['@', '#,##0.00']] });
      await gw.writeFormula({ sheet: 'Sheet1', cell: 'B1', address: 'Sheet1!B1' }, '=FIN.TOTAL("Operating Expenses > Software","2026-Q3")');
      expect(inspect.cell('Sheet1', 'B1')).toMatchObject({ formula: '=FIN.TOTAL("Operating Expenses > Software","2026-Q3")', numberFormat: '#,##0.00' });
      await gw.writeFormula('Sheet1!A1', '=1+1');
      expect(inspect.cell('Sheet1', 'A1')).toMatchObject({ formula: '=1+1', numberFormat: 'General' });
      await gw.writeGrid({ kind: 'newSheet', name: "P&L '26", activate: false }, { values: [['x']] });
      await gw.writeFormula("'P&L ''26'!C3", '=FIN.VERSION()');
      expect(inspect.cell("P&L '26", 'C3').formula).toBe('=FIN.VERSION()');
      // A value written later replaces the formula.
      await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [['text']] });
      expect(inspect.cell('Sheet1', 'A1').value).toBe('text');
      expect(inspect.cell('Sheet1', 'A1').formula).toBeUndefined();
      expect((await rejection(gw.writeFormula('Sheet1!D4', 'not a formula'))).code).toBe('InvalidInput');
      expect(inspect.cell('Sheet1', 'D4').value).toBe('');
      expect(inspect.cell('Sheet1', 'D4').formula).toBeUndefined();
      expect((await rejection(gw.writeFormula('Missing!A1', '=1'))).code).toBe('NotFound');
    });

    test('writeFormulas: a block of formulas in one go, null leaving a cell as it is; a text-formatted cell gets General, other formats stay; a bad block writes nothing', async () => {
      await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [['label', 5, null], [null, null, 'kept']], cellFormats: [['@', '#,##0.00', null], [null, '@', null]] });
      await gw.writeFormulas('Sheet1!A1', [
        [null, '=FIN.PNL("Revenue",$A2)', '=1+1'],
        ['=FIN.PERIOD(FIN_PERIOD,1-$B$37)', '=IF(1>$B$37,NA(),FIN.PNL("Revenue",$A2))', null],
      ]);
      expect(inspect.cell('Sheet1', 'A1')).toMatchObject({ value: 'label', numberFormat: '@' });
      expect(inspect.cell('Sheet1', 'A1').formula).toBeUndefined();
      expect(inspect.cell('Sheet1', 'B1')).toMatchObject({ formula: '=FIN.PNL("Revenue",$A2)', numberFormat: '#,##0.00' });
      expect(inspect.cell('Sheet1', 'C1').formula).toBe('=1+1');
      expect(inspect.cell('Sheet1', 'A2').formula).toBe('=FIN.PERIOD(FIN_PERIOD,1-$B$37)');
      expect(inspect.cell('Sheet1', 'B2')).toMatchObject({ formula: '=IF(1>$B$37,NA(),FIN.PNL("Revenue",$A2))', numberFormat: 'General' });
      expect(inspect.cell('Sheet1', 'C2')).toMatchObject({ value: 'kept' });
      expect(inspect.cell('Sheet1', 'C2').formula).toBeUndefined();
      await gw.writeGrid({ kind: 'newSheet', name: "P&L '26", activate: false }, { values: [['x']] });
      await gw.writeFormulas({ sheet: "P&L '26", cell: 'C3', address: "'P&L ''26'!C3" }, [['=FIN.VERSION()']]);
      expect(inspect.cell("P&L '26", 'C3').formula).toBe('=FIN.VERSION()');
      // Text is never a formula: a block holding any entry that is not one is refused whole, before any write.
      for (const bad of [[['=1', 'Revenue']], [['=1'], ['=2', '=3']], [], [[]]]) {
        expect((await rejection(gw.writeFormulas('Sheet1!E1', bad))).code).toBe('InvalidInput');
      }
      expect(inspect.cell('Sheet1', 'E1').formula).toBeUndefined();
      expect(inspect.cell('Sheet1', 'E1').value).toBe('');
      expect((await rejection(gw.writeFormulas('Missing!A1', [['=1']]))).code).toBe('NotFound');
    });

    test('settings round-trip as JSON', async () => {
      expect(await gw.readSetting('scale')).toBeUndefined();
      const value = { scale: 1000, companies: ['c1', 'c2'], nested: { on: true, at: '2026-01-31T00:00:00Z', none: null } };
      await gw.writeSetting('display', value);
      await gw.writeSetting('scale', 1000);
      expect(await gw.readSetting('display')).toEqual(value);
      await gw.writeSetting('scale', 1);
      expect(await gw.readSetting('scale')).toBe(1);
      await gw.removeSetting('scale');
      await gw.removeSetting('never-set');
      expect(await gw.readSetting('scale')).toBeUndefined();
    });

    describe('charts: real Excel charts reading cells of the workbook', () => {
      // STATEMENT at B2: the periods in C3:D3, Total revenue in row 7, Net income in row 8.
      const SPEC: ChartSpec = {
        kind: 'line',
        title: 'Revenue and net income',
        categories: 'Sheet1!C3:D3',
        series: [
          { name: 'Total revenue', values: 'Sheet1!C7:D7' },
          { name: 'Net income', values: 'Sheet1!C8:D8' },
        ],
      };
      const block = () => gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, STATEMENT);
      const shown = (sheet = 'Sheet1') => inspect.charts(sheet).map((c) => ({ name: c.name, series: c.series.map((x) => [x.name, x.values, x.categories, x.shown]) }));

      test('a chart over cells beside a block: its series read the block, against the period labels', async () => {
        await block();
        await gw.addChart({ sheet: 'Sheet1', over: 'F2:M16' }, SPEC, 'FinChart_1');
        expect(inspect.charts('Sheet1')).toEqual([
          {
            name: 'FinChart_1',
            title: 'Revenue and net income',
            over: 'F2:M16',
            series: [
              { name: 'Total revenue', linked: false, values: 'Sheet1!C7:D7', categories: 'Sheet1!C3:D3', shown: [1200.5, 1300] },
              { name: 'Net income', linked: false, values: 'Sheet1!C8:D8', categories: 'Sheet1!C3:D3', shown: [400.5, 450] },
            ],
          },
        ]);
      });

      test("a block rewritten in place keeps the charts on its range, the user's and the add-in's, showing the new figures", async () => {
        const first = await block();
        inspect.userChart('Sheet1', 'C5:D6', 'F20:M34');
        await gw.addChart({ sheet: 'Sheet1', over: 'F2:M16' }, SPEC, 'FinChart_1');
        const before = inspect.charts('Sheet1').map((c) => ({ ...c, series: c.series.map((x) => ({ ...x, shown: [] })) }));
        const next: GridWrite = { ...STATEMENT, values: STATEMENT.values.map((row, r) => row.map((v) => (typeof v === 'number' && r > 2 ? v * 2 : v))) };
        await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, next, { replace: { address: first.address, rowGroups: first.rowGroups } });
        const after = inspect.charts('Sheet1');
        expect(after.map((c) => ({ ...c, series: c.series.map((x) => ({ ...x, shown: [] })) }))).toEqual(before);
        expect(after.map((c) => c.series.map((x) => x.shown))).toEqual([
          [
            [2000, 2200],
            [401, 400],
          ],
          [
            [2401, 2600],
            [801, 900],
          ],
        ]);
      });

      test('updateChart points the series at other cells, adds and removes series, keeps its place; a missing chart is said', async () => {
        await block();
        await gw.addChart({ sheet: 'Sheet1', over: 'F2:M16' }, SPEC, 'FinChart_1');
        const three: ChartSpec = { ...SPEC, title: 'Three lines', series: [{ name: 'Product', values: 'Sheet1!C5:D5' }, { name: 'Services', values: 'Sheet1!C6:D6' }, { name: 'Net income', values: 'Sheet1!C8:D8' }] };
        expect(await gw.updateChart('Sheet1', 'FinChart_1', three)).toBe('updated');
        expect(shown()).toEqual([
          {
            name: 'FinChart_1',
            series: [
              ['Product', 'Sheet1!C5:D5', 'Sheet1!C3:D3', [1000, 1100]],
              ['Services', 'Sheet1!C6:D6', 'Sheet1!C3:D3', [200.5, 200]],
              ['Net income', 'Sheet1!C8:D8', 'Sheet1!C3:D3', [400.5, 450]],
            ],
          },
        ]);
        expect(await gw.updateChart('Sheet1', 'FinChart_1', { ...SPEC, series: [SPEC.series[1]] })).toBe('updated');
        expect(inspect.charts('Sheet1')).toMatchObject([{ title: 'Revenue and net income', over: 'F2:M16', series: [{ name: 'Net income', values: 'Sheet1!C8:D8' }] }]);
        expect(await gw.updateChart('Sheet1', 'FinChart_9', SPEC)).toBe('missing');
        await gw.deleteChart('Sheet1', 'FinChart_1');
        await gw.deleteChart('Sheet1', 'FinChart_1');
        expect(inspect.charts('Sheet1')).toEqual([]);
      });

      test('rows inserted above move what a chart reads, and the chart, with the cells', async () => {
        await block();
        await gw.addChart({ sheet: 'Sheet1', over: 'F2:M16' }, SPEC, 'FinChart_1');
        inspect.insertRows('Sheet1', 1, 3);
        expect(inspect.charts('Sheet1')).toMatchObject([{ over: 'F5:M19', series: [{ values: 'Sheet1!C10:D10', categories: 'Sheet1!C6:D6', shown: [1200.5, 1300] }, { values: 'Sheet1!C11:D11' }] }]);
      });

      test("a values copy keeps the charts, reading the copy's own cells (below its note)", async () => {
        await block();
        await gw.addChart({ sheet: 'Sheet1', over: 'F2:M16' }, SPEC, 'FinChart_1');
        const copy = await gw.copySheetAsValues('Sheet1', { name: 'Sheet1 (values)', note: ['Values as of today'] });
        expect(inspect.charts(copy.sheet)).toMatchObject([
          {
            over: 'F4:M18',
            series: [
              { name: 'Total revenue', values: "'Sheet1 (values)'!C9:D9", categories: "'Sheet1 (values)'!C5:D5", shown: [1200.5, 1300] },
              { name: 'Net income', values: "'Sheet1 (values)'!C10:D10", shown: [400.5, 450] },
            ],
          },
        ]);
        expect(shown()).toEqual([{ name: 'FinChart_1', series: [['Total revenue', 'Sheet1!C7:D7', 'Sheet1!C3:D3', [1200.5, 1300]], ['Net income', 'Sheet1!C8:D8', 'Sheet1!C3:D3', [400.5, 450]]] }]);
      });

      test("a chart of a table's columns (the board pack's charts): series by columns, kept on the copy's own cells", async () => {
        await gw.writeGrid({ kind: 'newSheet', name: 'Board charts' }, { values: [['Month', 'Revenue', 'Net burn'], ['2026-01', 100, -5], ['2026-02', 120, 7.5], ['2026-03', 90, 12]] });
        const spec: ChartSpec = {
          kind: 'column',
          title: 'Revenue and net burn',
          categories: "'Board charts'!A2:A4",
          series: [
            { name: 'Revenue', values: "'Board charts'!B2:B4" },
            { name: 'Net burn', values: "'Board charts'!C2:C4" },
          ],
        };
        await gw.addChart({ sheet: 'Board charts', over: 'A6:D20' }, spec, 'FinBoard_1');
        expect(inspect.charts('Board charts')).toMatchObject([
          {
            name: 'FinBoard_1',
            over: 'A6:D20',
            series: [
              { name: 'Revenue', values: "'Board charts'!B2:B4", categories: "'Board charts'!A2:A4", shown: [100, 120, 90] },
              { name: 'Net burn', values: "'Board charts'!C2:C4", shown: [-5, 7.5, 12] },
            ],
          },
        ]);
        const copy = await gw.copySheetAsValues('Board charts', { name: 'Board charts (values)', note: ['Values as of today'] });
        expect(inspect.charts(copy.sheet)).toMatchObject([
          { over: 'A8:D22', series: [{ values: "'Board charts (values)'!B4:B6", categories: "'Board charts (values)'!A4:A6", shown: [100, 120, 90] }, { values: "'Board charts (values)'!C4:C6", shown: [-5, 7.5, 12] }] },
        ]);
      });

      test('titles and series names from the API stay text, never a formula or a link', async () => {
        await block();
        const spec: ChartSpec = { ...SPEC, title: HOSTILE_TEXT[0], series: HOSTILE_TEXT.slice(0, 4).map((name) => ({ name, values: 'Sheet1!C7:D7' })) };
        await gw.addChart({ sheet: 'Sheet1', over: 'F2:M16' }, spec, 'FinChart_1');
        const [chart] = inspect.charts('Sheet1');
        expect(chart.series.map((x) => x.linked)).toEqual([false, false, false, false]);
        expect(chart.series.map((x) => x.name)).toEqual(HOSTILE_TEXT.slice(0, 4).map((t) => `${CHART_TEXT_GUARD}${t}`));
        expect(chart.title).toBe(`${CHART_TEXT_GUARD}${HOSTILE_TEXT[0]}`);
        await gw.updateChart('Sheet1', 'FinChart_1', { ...spec, series: [{ name: '=Sheet1!B2', values: 'Sheet1!C8:D8' }] });
        expect(inspect.charts('Sheet1')[0].series).toMatchObject([{ name: `${CHART_TEXT_GUARD}=Sheet1!B2`, linked: false }]);
      });

      test('a chart Excel could not draw is refused before anything is added', async () => {
        await block();
        for (const bad of [
          { ...SPEC, series: [] },
          { ...SPEC, series: [{ name: 'Two rows', values: 'Sheet1!C7:D8' }] },
          { ...SPEC, series: [{ name: 'Too long', values: 'Sheet1!C7:E7' }] },
          { ...SPEC, kind: 'pie' as ChartSpec['kind'] },
        ]) {
          expect((await rejection(gw.addChart({ sheet: 'Sheet1', over: 'F2:M16' }, bad, 'FinChart_1'))).code).toBe('InvalidInput');
        }
        expect(inspect.charts('Sheet1')).toEqual([]);
        expect((await rejection(gw.addChart({ sheet: 'Nope', over: 'F2:M16' }, SPEC, 'FinChart_1'))).code).toBe('NotFound');
      });
    });

    describe('sheet protection (no password)', () => {
      const log = () =>
        gw.createTable({ name: 'Log', columns: [{ name: 'Id', kind: 'text' }, { name: 'Merchant', kind: 'text' }, { name: 'Amount', kind: 'number' }], rows: [['t1', 'Acme', 1]], target: { kind: 'newSheet', name: 'Log', activate: false } });

      test("a protected sheet refuses every write, the add-in's and the user's, and changes nothing", async () => {
        const t = await log();
        expect(await gw.isSheetProtected('Log')).toBe(false);
        await gw.protectSheet('Log');
        await gw.protectSheet('Log');
        expect(await gw.isSheetProtected('Log')).toBe(true);
        const refusals = [
          gw.appendRows(t.name, [['t2', 'Globex', 2]]),
          gw.updateRowsByKey(t.name, 'Id', [{ key: 't1', values: { Merchant: 'changed' } }]),
          gw.writeGrid({ kind: 'anchor', sheet: 'Log', cell: 'F1' }, { values: [['x']] }),
          gw.writeFormula('Log!F2', '=1+1'),
          gw.addChart({ sheet: 'Log', over: 'H1:K9' }, { kind: 'column', title: 'x', categories: 'Log!A2:A2', series: [{ name: 'x', values: 'Log!C2:C2' }] }, 'FinChart_1'),
        ];
        for (const p of refusals) expect((await rejection(p)).code).toBe('Protected');
        expect(() => inspect.type('Log', 'A2', 'typed over')).toThrow();
        expect((await gw.readTable(t.name)).rows).toEqual([['t1', 'Acme', 1]]);
        expect(inspect.cell('Log', 'F1').value).toBe('');
        expect(inspect.charts('Log')).toEqual([]);
      });

      test('lifted, written, protected again: rows go in as text, and the sheet is protected once more', async () => {
        const t = await log();
        await gw.protectSheet('Log');
        await gw.unprotectSheet('Log');
        await gw.unprotectSheet('Log');
        expect(await gw.isSheetProtected('Log')).toBe(false);
        await gw.appendRows(t.name, HOSTILE_TEXT.map((m, i) => [`t${i + 2}`, m, i]));
        await gw.protectSheet('Log');
        expect(await gw.isSheetProtected('Log')).toBe(true);
        expect((await gw.readTable(t.name)).rows.map((r) => r[1])).toEqual(['Acme', ...HOSTILE_TEXT]);
        for (let r = 3; r < 3 + HOSTILE_TEXT.length; r++) expect(inspect.cell('Log', `B${r}`).formula).toBeUndefined();
      });

      test('a sheet the user protected is refused by name and untouched; its values copy is made, and is protected too', async () => {
        await log();
        inspect.protect('Log');
        expect(await gw.isSheetProtected('Log')).toBe(true);
        const copy = await gw.copySheetAsValues('Log', { name: 'Log (values)', note: ['Values as of today', HOSTILE_TEXT[0]] });
        expect(inspect.cell(copy.sheet, 'A1').value).toBe('Values as of today');
        expect(inspect.cell(copy.sheet, 'A2')).toMatchObject({ value: HOSTILE_TEXT[0] });
        expect(inspect.cell(copy.sheet, 'A2').formula).toBeUndefined();
        expect(inspect.cell(copy.sheet, 'B5').value).toBe('Acme');
        expect(await gw.isSheetProtected(copy.sheet)).toBe(true);
        expect(await gw.isSheetProtected('Log')).toBe(true);
        expect(inspect.cell('Log', 'A1').value).toBe('Id');
      });
    });

    test('bindings: save, update, list, remove; settings are not bindings', async () => {
      const b1: BindingRecord = {
        id: 'b1',
        kind: 'statement',
        parameters: { report: 'income_statement', periods: ['2026-01', '2026-02'], scale: 1000 },
        company: 'cmp_1',
        refreshedAt: '2026-03-01T10:00:00.000Z',
        address: "'P&L'!A1:M40",
        outlineDepth: 2,
      };
      const b2: BindingRecord = { id: 'b2', kind: 'transactions', parameters: {}, company: 'cmp_1', refreshedAt: '2026-03-01T10:00:00.000Z', address: 'Tx!A1:O5001', table: 'Transactions' };
      await gw.writeSetting('b0', { id: 'b0', kind: 'x', address: 'y' });
      await gw.saveBinding(b2);
      await gw.saveBinding(b1);
      expect(await gw.listBindings()).toEqual([b1, b2]);
      await gw.saveBinding({ ...b1, refreshedAt: '2026-04-01T10:00:00.000Z' });
      expect((await gw.listBindings())[0].refreshedAt).toBe('2026-04-01T10:00:00.000Z');
      await gw.removeBinding('b2');
      await gw.removeBinding('never-saved');
      expect((await gw.listBindings()).map((b) => b.id)).toEqual(['b1']);
    });
  });
}
