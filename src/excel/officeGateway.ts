/**
 * WorkbookGateway over Office.js. Excel.run is injected so tests can put their own host behind Microsoft's
 * client library; in the add-in the default is the global one. Office globals are touched only when a method
 * runs, so importing this file in Node is harmless.
 */
import type { DateSystem } from '../engine/dates';
import { parseQualified, boxA1 } from '../engine/ports/address';
import {
  GatewayError,
  type BindingRecord,
  type BlockLocation,
  type CellRef,
  type ChartPlacement,
  type ChartSpec,
  type ChartUpdate,
  type GridWrite,
  type Json,
  type KeyedResult,
  type RangeRead,
  type RowUpdate,
  type SelectionRead,
  type SheetContent,
  type SheetInfo,
  type TableRead,
  type TableRef,
  type TableSpec,
  type ValuesCopy,
  type ValuesCopyOptions,
  type WorkbookGateway,
  type WriteGridOptions,
  type WriteStats,
  type WriteTarget,
  type WriteValue,
  type WrittenRange,
} from '../engine/ports/workbook';
import * as charts from './office/charts';
import { chartSelected, checkDefinedName, checkFormula, checkFormulaBlock, unreadableSelection } from './hostRules';
import { findContent, readRange, writeFormula, writeFormulas, writeGrid } from './office/grid';
import { hostError } from './office/hostError';
import * as names from './office/names';
import * as protection from './office/protection';
import { Session, type SessionOptions } from './office/session';
import * as sheets from './office/sheets';
import * as store from './office/store';
import * as tables from './office/tables';
import { DEFAULT_BUDGET_BYTES } from './payload';

export type ExcelRunner = <T>(options: Excel.RunOptions, batch: (context: Excel.RequestContext) => Promise<T>) => Promise<T>;

export interface OfficeGatewayOptions {
  /** Defaults to the global Excel.run. */
  run?: ExcelRunner;
  /** Estimated bytes per request; Excel on the web rejects requests over 5 MB. */
  budgetBytes?: number;
}

function hostSupports(set: string, version: string): boolean {
  return Office.context.requirements.isSetSupported(set, version);
}

/**
 * Every batch waits for the user to finish editing a cell instead of failing with
 * InvalidOperationInCellEditMode (which would stop a chunked write half way). The option has no public
 * requirement set: the library applies it where the host supports it and ignores it elsewhere.
 */
const RUN_OPTIONS: Excel.RunOptions = { delayForCellEdit: true };

/** DATE(2000,1,1) in each date system: 1904 counts from 1904-01-01, 1900 from 1899-12-31 (with 1900-02-29). */
const Y2K_1900 = 36526;
const Y2K_1904 = 35064;

function emptyStats(operation: string): WriteStats {
  return { operation, rows: 0, syncs: 0, chunks: 0, rowsPerChunk: 0, largestPayloadBytes: 0, retries: 0 };
}

export class OfficeGateway implements WorkbookGateway {
  private readonly run: ExcelRunner;
  private readonly sessionOptions: SessionOptions;
  private stats: WriteStats | undefined;

  constructor(options: OfficeGatewayOptions = {}) {
    this.run = options.run ?? ((runOptions, batch) => Excel.run(runOptions, batch));
    this.sessionOptions = { budgetBytes: options.budgetBytes ?? DEFAULT_BUDGET_BYTES, supports: hostSupports };
  }

  get lastWriteStats(): WriteStats | undefined {
    return this.stats;
  }

  /** Runs a measured operation; its stats are kept even when it fails, since a failure's cost matters too. */
  private async measured<T>(operation: string, fn: (s: Session) => Promise<T>): Promise<T> {
    const stats = emptyStats(operation);
    this.stats = stats;
    try {
      return await this.run(RUN_OPTIONS, (ctx) => fn(new Session(ctx, stats, this.sessionOptions)));
    } catch (error) {
      throw hostError(error);
    }
  }

  private async plain<T>(fn: (ctx: Excel.RequestContext) => Promise<T>): Promise<T> {
    try {
      return await this.run(RUN_OPTIONS, fn);
    } catch (error) {
      throw hostError(error);
    }
  }

  writeGrid(target: WriteTarget, grid: GridWrite, options?: WriteGridOptions): Promise<WrittenRange> {
    return this.measured('writeGrid', (s) => writeGrid(s, target, grid, options));
  }

  readRange(address: string): Promise<RangeRead> {
    return this.measured('readRange', (s) => readRange(s, address));
  }

  findContent(address: string): Promise<string | null> {
    return this.measured('findContent', (s) => findContent(s, address));
  }

  locateBlock(name: string): Promise<BlockLocation> {
    return this.measured('locateBlock', (s) => names.locateBlock(s, name));
  }

  deleteName(name: string): Promise<void> {
    return this.measured('deleteName', (s) => names.deleteName(s, name));
  }

  async nameRange(address: string, name: string): Promise<void> {
    checkDefinedName(name);
    return this.measured('nameRange', (s) => names.nameRange(s, address, name));
  }

  createTable(spec: TableSpec): Promise<TableRef> {
    return this.measured('createTable', (s) => tables.createTable(s, spec));
  }

  appendRows(table: string, rows: WriteValue[][]): Promise<TableRef> {
    return this.measured('appendRows', (s) => tables.appendRows(s, table, rows));
  }

  updateRowsByKey(table: string, keyColumn: string, updates: RowUpdate[]): Promise<KeyedResult> {
    return this.measured('updateRowsByKey', (s) => tables.updateRowsByKey(s, table, keyColumn, updates));
  }

  deleteRowsByKey(table: string, keyColumn: string, keys: (string | number)[]): Promise<KeyedResult> {
    return this.measured('deleteRowsByKey', (s) => tables.deleteRowsByKey(s, table, keyColumn, keys));
  }

  readTable(table: string): Promise<TableRead> {
    return this.measured('readTable', (s) => tables.readTable(s, table));
  }

  setListValidation(table: string, column: string, items: string[], listName?: string): Promise<void> {
    return this.measured('setListValidation', (s) => tables.setListValidation(s, table, column, items, listName ?? `${table}.${column}`));
  }

  listSheets(): Promise<SheetInfo[]> {
    return this.measured('listSheets', (s) => sheets.listSheets(s));
  }

  readSheet(sheet: string): Promise<SheetContent> {
    return this.measured('readSheet', (s) => sheets.readSheet(s, sheet));
  }

  copySheetAsValues(sheet: string, options: ValuesCopyOptions): Promise<ValuesCopy> {
    return this.measured('copySheetAsValues', (s) => sheets.copySheetAsValues(s, sheet, options));
  }

  isCalculating(): Promise<boolean> {
    return this.measured('isCalculating', (s) => sheets.isCalculating(s));
  }

  addChart(placement: ChartPlacement, spec: ChartSpec, name: string): Promise<void> {
    return this.measured('addChart', (s) => charts.addChart(s, placement, spec, name));
  }

  updateChart(sheet: string, name: string, spec: ChartSpec): Promise<ChartUpdate> {
    return this.measured('updateChart', (s) => charts.updateChart(s, sheet, name, spec));
  }

  deleteChart(sheet: string, name: string): Promise<void> {
    return this.measured('deleteChart', (s) => charts.deleteChart(s, sheet, name));
  }

  protectSheet(sheet: string): Promise<void> {
    return this.measured('protectSheet', (s) => protection.setProtection(s, sheet, true));
  }

  unprotectSheet(sheet: string): Promise<void> {
    return this.measured('unprotectSheet', (s) => protection.setProtection(s, sheet, false));
  }

  isSheetProtected(sheet: string): Promise<boolean> {
    return this.measured('isSheetProtected', (s) => protection.isProtected(s, sheet));
  }

  getDateSystem(): Promise<DateSystem> {
    // No API reports the date system; DATE() evaluated by the workbook does, without touching a cell.
    return this.plain(async (ctx) => {
      const probe = ctx.workbook.functions.date(2000, 1, 1).load('value');
      await ctx.sync();
      if (probe.value === Y2K_1900) return 1900;
      if (probe.value === Y2K_1904) return 1904;
      throw new GatewayError('Host', `Unexpected DATE(2000,1,1) = ${String(probe.value)}`);
    });
  }

  getSelectedCell(): Promise<CellRef> {
    return this.plain(async (ctx) => {
      const cell = ctx.workbook.getActiveCell().load('address');
      await ctx.sync();
      const { sheet, box } = parseQualified(cell.address);
      const a1 = boxA1({ ...box, rows: 1, cols: 1 });
      return { sheet, cell: a1, address: cell.address };
    });
  }

  getSelection(): Promise<SelectionRead> {
    return this.plain(async (ctx) => {
      const range = ctx.workbook.getSelectedRange().load('address,rowCount,columnCount');
      const top = range.getCell(0, 0).load('formulas,values');
      try {
        await ctx.sync();
      } catch (error) {
        if ((error as { code?: string }).code !== 'InvalidSelection') throw error;
        const chart = ctx.workbook.getActiveChartOrNullObject().load('name');
        await ctx.sync();
        throw chart.isNullObject ? unreadableSelection() : chartSelected();
      }
      const formula = top.formulas[0]?.[0];
      const value = top.values[0]?.[0] as SelectionRead['topLeft']['value'] | undefined;
      return {
        sheet: parseQualified(range.address).sheet,
        address: range.address,
        rowCount: range.rowCount,
        columnCount: range.columnCount,
        // formulas holds the value itself for a cell without a formula.
        topLeft: { formula: typeof formula === 'string' && formula.startsWith('=') ? formula : null, value: value ?? '' },
      };
    });
  }

  async writeFormula(cell: CellRef | string, formula: string): Promise<void> {
    checkFormula(formula);
    return this.measured('writeFormula', (s) => writeFormula(s, typeof cell === 'string' ? cell : cell.address, formula));
  }

  async writeFormulas(at: CellRef | string, formulas: readonly (readonly (string | null)[])[]): Promise<void> {
    checkFormulaBlock(formulas);
    return this.measured('writeFormulas', (s) => writeFormulas(s, typeof at === 'string' ? at : at.address, formulas));
  }

  activateSheet(name: string): Promise<void> {
    return this.plain(async (ctx) => {
      ctx.workbook.worksheets.getItem(name).activate();
      await ctx.sync();
    });
  }

  readSetting(key: string): Promise<Json | undefined> {
    return this.plain((ctx) => store.readSetting(ctx, key));
  }

  writeSetting(key: string, value: Json): Promise<void> {
    return this.plain((ctx) => store.writeSetting(ctx, key, value));
  }

  removeSetting(key: string): Promise<void> {
    return this.plain((ctx) => store.removeSetting(ctx, key));
  }

  listBindings(): Promise<BindingRecord[]> {
    return this.plain((ctx) => store.listBindings(ctx));
  }

  saveBinding(binding: BindingRecord): Promise<void> {
    return this.plain((ctx) => store.saveBinding(ctx, binding));
  }

  removeBinding(id: string): Promise<void> {
    return this.plain((ctx) => store.removeBinding(ctx, id));
  }
}
