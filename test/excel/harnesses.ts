/** The two implementations, each with an inspector over the workbook behind it. */
import { parseQualified, qualify } from '../../src/engine/ports/address';
import { MemoryGateway } from '../../src/excel/memoryGateway';
import { OfficeGateway, type OfficeGatewayOptions } from '../../src/excel/officeGateway';
import type { Harness, Inspector } from './contract';
import { a1, FakeExcel, quoteSheet, type ChartRef, type FakeExcelOptions } from './fakeExcel';
import { realExcelRun, WINDOWS, type HostProfile } from './officeJs';

export function fakeInspector(fake: FakeExcel): Inspector {
  return {
    sheetNames: () => fake.sheets.map((s) => s.name),
    cell: (sheet, a1) => {
      const c = fake.cell(sheet, a1);
      return { value: c.value, formula: c.formula, numberFormat: c.numberFormat, bold: c.bold, indent: c.indent };
    },
    outlineLevel: (sheet, row) => fake.sheet(sheet).outline.get(row) ?? 0,
    columnWidth: (sheet, col) => fake.sheet(sheet).widths.get(col),
    visibility: (sheet) => fake.sheet(sheet).visibility,
    activeSheet: () => fake.active.name,
    validationSource: (sheet, a1) => (fake.cell(sheet, a1).validation as { list?: { source?: string } } | undefined)?.list?.source,
    select: (sheet, a1) => fake.select(sheet, a1),
    names: () => fake.names.map((n) => ({ name: n.name, visible: n.visible, address: n.target && `${quoteSheet(n.target.sheet.name)}!${a1(n.target.box)}` })),
    type: (sheet, address, value) => fake.type(sheet, address, value),
    insertRows: (sheet, before, count) => fake.insertRows(sheet, before - 1, count),
    groupRows: (sheet, first, count) => fake.group(fake.sheet(sheet), { row: first - 1, col: 0, rows: count, cols: 1 }, 'ByRows'),
    deleteRows: (sheet, first, count) => fake.deleteRows(sheet, first - 1, count),
    renameSheet: (from, to) => fake.renameSheet(from, to),
    deleteSheet: (name) => fake.deleteSheet(fake.sheet(name)),
    charts: (sheet) => {
      const address = (ref: ChartRef | null) => (ref ? `${quoteSheet(ref.sheet.name)}!${a1(ref.box)}` : null);
      const shown = (ref: ChartRef | null) => {
        const out: (string | number | boolean)[] = [];
        if (!ref) return out;
        for (let r = ref.box.row; r < ref.box.row + ref.box.rows; r++) for (let c = ref.box.col; c < ref.box.col + ref.box.cols; c++) out.push(ref.sheet.get(r, c)?.value ?? '');
        return out;
      };
      return fake.sheet(sheet).charts.map((c) => ({
        name: c.name,
        title: c.title,
        over: a1(c.over),
        series: c.series.map((x) => ({ name: x.name, linked: x.nameFormula !== undefined, values: address(x.values), categories: address(x.categories), shown: shown(x.values) })),
      }));
    },
    userChart: (sheet, source, over) => void fake.userChart(sheet, source, over),
    protect: (sheet) => fake.protectSheet(sheet),
  };
}

/** OfficeGateway through Microsoft's client library, on a host profile (Windows unless told). */
export function officeHarness(
  fakeOptions: FakeExcelOptions = {},
  gatewayOptions: Omit<OfficeGatewayOptions, 'run'> & { host?: HostProfile } = {},
): Harness & { fake: FakeExcel; office: OfficeGateway } {
  const { host = WINDOWS, ...options } = gatewayOptions;
  const fake = new FakeExcel({ sheetNamesIncludeWorkbook: host.platform === 'OfficeOnline', ...fakeOptions });
  const office = new OfficeGateway({ run: realExcelRun(fake, host), ...options });
  return { fake, office, gateway: office, inspect: fakeInspector(fake) };
}

export function memoryHarness(options: { date1904?: boolean } = {}): Harness & { memory: MemoryGateway } {
  const memory = new MemoryGateway({ dateSystem: options.date1904 ? 1904 : 1900 });
  const inspect: Inspector = {
    sheetNames: () => memory.sheetNames(),
    cell: (sheet, a1) => memory.cell(sheet, a1),
    outlineLevel: (sheet, row) => memory.outlineLevel(sheet, row),
    columnWidth: (sheet, col) => memory.columnWidth(sheet, col),
    visibility: (sheet) => memory.visibility(sheet),
    activeSheet: () => memory.activeSheetName(),
    validationSource: (sheet, a1) => memory.validationSource(sheet, a1),
    select: (sheet, a1) => memory.select(sheet, a1),
    names: () => memory.definedNames(),
    type: (sheet, a1, value) => memory.typeValue(sheet, a1, value),
    insertRows: (sheet, before, count) => memory.insertSheetRows(sheet, before, count),
    groupRows: (sheet, first, count) => memory.groupSheetRows(sheet, first, count),
    deleteRows: (sheet, first, count) => memory.deleteSheetRows(sheet, first, count),
    renameSheet: (from, to) => memory.renameSheet(from, to),
    deleteSheet: (name) => memory.deleteSheet(name),
    charts: (sheet) =>
      memory.chartsOn(sheet).map((c) => ({
        name: c.name,
        title: c.title,
        over: c.over,
        series: c.series.map((x) => ({ name: x.name, linked: false, values: x.values, categories: x.categories, shown: x.shown })),
      })),
    userChart: (sheet, source, over) => {
      const { box } = parseQualified(`${quoteSheet(sheet)}!${source}`);
      const rows = Array.from({ length: box.rows }, (_, i) => ({ name: `Series${i + 1}`, values: qualify(sheet, { ...box, row: box.row + i, rows: 1 }) }));
      memory.addUserChart(sheet, over, rows);
    },
    protect: (sheet) => void memory.protectSheet(sheet),
  };
  return { memory, gateway: memory, inspect };
}
