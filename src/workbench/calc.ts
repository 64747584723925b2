// The workbench's calculation, as Excel's: every formula cell is evaluated (formula/evaluate.ts) with what
// it reads recorded as its precedents; when cells change, only the formulas that read them are calculated
// again, precedents first. FIN functions are called as Excel calls custom functions (customFunctions.ts):
// a cell keeps each call's answer until a full recalculation (Refresh all), so recalculating a cell whose
// FIN arguments did not change makes no call. A cell is #BUSY! until every answer it needs is in; an
// array spills into the blank cells to its right and below (#SPILL! when they are not blank).

import { MAX_COLS, MAX_ROWS, parseQualified, type Box } from '../engine/ports/address';
import { positionAddress, positionKey, type CellPosition, type WorkbenchBook } from './book';
import { BUSY_RESULT, resultOf, sameResult, valueOf, type CellResult, type Scalar } from './cellResult';
import { CustomFunctionHost, type FunctionInfo } from './customFunctions';
import type { CustomFunction } from './customFunctionsStub';
import { deref, evaluate, type FormulaHost } from './formula/evaluate';
import { parseFormula, type ParsedFormula } from './formula/syntax';
import { BUSY, errorFromText, errors, isError, type CellError, type Matrix, type Reference, type Result, type Value } from './formula/values';

/** One FIN call a cell made: its answer (null while awaited) and how to tell the function it is not wanted. */
interface Call {
  result: CellResult | null;
  cancel?: () => void;
}

interface Entry {
  key: string;
  at: CellPosition;
  formula: string;
  parsed: ParsedFormula;
  result: CellResult;
  /** Order of entry: an earlier spill wins the cells two spills want. */
  generation: number;
  /** What its last complete calculation read. */
  precedents: Reference[];
  /** Its FIN calls by function and arguments. */
  calls: Map<string, Call>;
  /** Busy because a cell it reads is busy: its own FIN calls may not all be made yet. */
  waitingOnCells: boolean;
}

/** One calculation of one cell: what it read, and whether it must wait. */
interface Pass {
  precedents: Reference[];
  /** Formula cells it read that are due to be calculated first. */
  blockedOn: Set<string>;
  /** It read a busy cell, or a FIN answer is awaited. */
  waiting: boolean;
  waitingOnCells: boolean;
  circular: boolean;
  usedCalls: Set<string>;
}

export interface SpillCell {
  anchor: CellPosition;
  value: Scalar;
}

export interface FormulaEngineOptions {
  book: WorkbenchBook;
  /** The associated functions (customFunctionsStub's registry). */
  functions: Map<string, CustomFunction>;
  /** functions.json, once loaded; without it the parameter count comes from the function's length. */
  metadata: Promise<Map<string, FunctionInfo>>;
  namespace?: string;
}

const CIRCULAR = errors.ref('Circular reference: the formula reads its own cell, directly or through other cells');

function region(sheet: string, top: number, left: number, rows: number, cols: number): Reference {
  return { kind: 'reference', sheet, top, left, bottom: top + rows - 1, right: left + cols - 1 };
}

function intersects(a: Reference, b: Reference): boolean {
  return a.sheet.toLowerCase() === b.sheet.toLowerCase() && a.top <= b.bottom && b.top <= a.bottom && a.left <= b.right && b.left <= a.right;
}

export class FormulaEngine {
  private readonly entries = new Map<string, Entry>();
  private readonly dirty = new Set<string>();
  private readonly pendingCalls = new Set<Call>();
  private readonly custom: CustomFunctionHost;
  private readonly ready: Promise<void>;
  private generation = 0;
  private scheduled = false;
  private running = false;
  private evaluating: Entry | null = null;
  private spillCache: { version: number; cells: Map<string, SpillCell>; blocked: Set<string> } | null = null;
  private revision = 0;
  private readonly idleWaiters = new Set<() => void>();

  constructor(private readonly options: FormulaEngineOptions) {
    this.custom = new CustomFunctionHost(options.functions, options.namespace ?? 'FIN');
    this.ready = options.metadata.then(
      (info) => this.custom.useMetadata(info),
      () => undefined,
    );
    options.book.onFormulaWritten((at) => this.formulaWritten(at));
    options.book.onCellsChanged((sheet, box) => this.cellsChanged(sheet, box));
    options.book.onStructureChanged(() => this.customFunctionsAgain());
    options.book.calculateWith({ results: (sheet) => this.calculatedOn(sheet), calculating: () => this.calculating() });
    options.book.checkFormulasWith((formula) => {
      const parsed = parseFormula(formula);
      return parsed.ok ? null : parsed.message;
    });
  }

  // Changes -------------------------------------------------------------------------------------------

  private cellFormula(at: CellPosition): string | undefined {
    try {
      return this.options.book.cellAt(at.sheet, at.row, at.col).formula;
    } catch {
      return undefined; // the sheet is gone
    }
  }

  private cellRegion(e: Entry): Reference {
    return region(e.at.sheet, e.at.row, e.at.col, 1, 1);
  }

  /** The cells an entry's result covers: its own, and those of its spill. */
  private resultRegion(e: Entry): Reference {
    if (e.result.state !== 'spill') return this.cellRegion(e);
    return region(e.at.sheet, e.at.row, e.at.col, e.result.rows.length, e.result.rows[0].length);
  }

  private drop(e: Entry): void {
    for (const call of e.calls.values()) this.forget(call);
    e.calls.clear();
  }

  private forget(call: Call): void {
    call.cancel?.();
    this.pendingCalls.delete(call);
  }

  /** A formula entered (typed, or written by the pane): calculated afresh, its FIN calls made again. */
  private formulaWritten(at: CellPosition): void {
    const formula = this.cellFormula(at);
    if (!formula) return;
    const key = positionKey(at);
    const old = this.entries.get(key);
    if (old) this.drop(old);
    const entry: Entry = {
      key,
      at,
      formula,
      parsed: parseFormula(formula),
      result: BUSY_RESULT,
      generation: ++this.generation,
      precedents: [],
      calls: new Map(),
      waitingOnCells: false,
    };
    this.entries.set(key, entry);
    this.dirty.add(key);
    this.markDependants([this.cellRegion(entry), ...(old ? [this.resultRegion(old)] : [])]);
    this.changed();
    this.schedule();
  }

  /**
   * Rows or cells inserted or deleted, rows grouped or ungrouped: as Excel does (OfficeDev/office-js#3332,
   * #3911), every formula that calls a custom function is calculated again and makes its calls afresh.
   */
  private customFunctionsAgain(): void {
    let any = false;
    for (const e of this.entries.values()) {
      if (e.calls.size === 0) continue;
      this.drop(e);
      this.dirty.add(e.key);
      any = true;
    }
    if (!any) return;
    this.changed();
    this.schedule();
  }

  /** Values written over a rectangle: formulas there are gone, and what reads it is calculated again. */
  private cellsChanged(sheet: string, box: Box): void {
    const written = region(sheet, box.row, box.col, box.rows, box.cols);
    const regions = [written];
    for (const [key, e] of this.entries) {
      const covered = this.resultRegion(e);
      if (!intersects(covered, written)) continue;
      // A spill the write lands on may now be blocked (or free): everything it covers changed.
      regions.push(covered);
      if (this.cellFormula(e.at) !== e.formula) {
        this.drop(e);
        this.entries.delete(key);
        this.dirty.delete(key);
      }
    }
    this.markDependants(regions);
    this.changed();
    this.schedule();
  }

  private markDependants(regions: Reference[]): void {
    for (const e of this.entries.values()) {
      if (e.precedents.some((p) => regions.some((r) => intersects(p, r)))) this.dirty.add(e.key);
    }
  }

  private changed(): void {
    this.revision += 1;
    this.spillCache = null;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    void this.ready.then(() => {
      this.scheduled = false;
      this.run();
    });
  }

  // Calculation ---------------------------------------------------------------------------------------

  /** Calculates every dirty cell, each after the dirty cells it reads (found as it reads them). */
  private run(): void {
    if (this.running) return;
    this.running = true;
    try {
      const stack = [...this.dirty].reverse();
      const onPath = new Set<string>();
      let budget = 50 * (this.entries.size + 10);
      while (budget-- > 0) {
        if (stack.length === 0) {
          // Cells made dirty by what was just calculated (dependants, spills that moved).
          if (this.dirty.size === 0) break;
          stack.push(...[...this.dirty].reverse());
          onPath.clear();
        }
        const key = stack[stack.length - 1];
        const entry = this.entries.get(key);
        if (!entry || !this.dirty.has(key)) {
          stack.pop();
          onPath.delete(key);
          continue;
        }
        const blockedOn = this.calculate(entry);
        if (blockedOn.length === 0) {
          stack.pop();
          onPath.delete(key);
          continue;
        }
        onPath.add(key);
        if (blockedOn.some((k) => onPath.has(k))) {
          this.commit(entry, { state: 'error', code: CIRCULAR.code, message: CIRCULAR.message });
          stack.pop();
          onPath.delete(key);
          continue;
        }
        stack.push(...blockedOn);
      }
      // Whatever is left after the budget is a cycle through spills: shown as one.
      for (const key of [...this.dirty]) {
        const entry = this.entries.get(key);
        if (entry) this.commit(entry, { state: 'error', code: CIRCULAR.code, message: CIRCULAR.message });
      }
    } finally {
      this.running = false;
    }
    this.options.book.touch();
    this.notifyIfIdle();
  }

  /** One cell's calculation; the dirty cells it must wait for, or none when its result is committed. */
  private calculate(entry: Entry): string[] {
    const pass: Pass = { precedents: [], blockedOn: new Set(), waiting: false, waitingOnCells: false, circular: false, usedCalls: new Set() };
    let value: Value | Matrix;
    if (!entry.parsed.ok) {
      value = errors.value(`The formula cannot be read: ${entry.parsed.message}`);
    } else {
      const host = this.host(entry, pass);
      this.evaluating = entry;
      try {
        value = deref(evaluate(entry.parsed.ast, host), host);
      } catch (error) {
        value = errors.value(`The workbench could not calculate this formula: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        this.evaluating = null;
      }
    }
    if (pass.blockedOn.size > 0 && !pass.circular) return [...pass.blockedOn];
    entry.precedents = pass.precedents;
    for (const [k, call] of entry.calls) {
      if (pass.usedCalls.has(k)) continue;
      this.forget(call);
      entry.calls.delete(k);
    }
    entry.waitingOnCells = pass.waitingOnCells;
    const result: CellResult = pass.circular
      ? { state: 'error', code: CIRCULAR.code, message: CIRCULAR.message }
      : pass.waiting
        ? BUSY_RESULT
        : resultOf(value);
    this.commit(entry, result);
    return [];
  }

  private commit(entry: Entry, result: CellResult): void {
    this.dirty.delete(entry.key);
    if (sameResult(entry.result, result)) return;
    const before = this.resultRegion(entry);
    entry.result = result;
    this.changed();
    this.markDependants([before, this.resultRegion(entry)]);
    // A cell is not its own dependant: reading itself is reported as circular, not calculated forever.
    this.dirty.delete(entry.key);
  }

  /** What a formula reads, through the book and the other formulas' results. */
  private host(entry: Entry, pass: Pass): FormulaHost {
    const host: FormulaHost = {
      sheet: entry.at.sheet,
      read: (ref) => this.read(ref, entry, pass),
      spillRange: (anchor) => this.spillRange(anchor, entry, pass),
      isCustom: (name) => this.custom.isCustom(name),
      callCustom: (name, args) => this.callCustom(entry, pass, name, args, host),
      resolveName: (name) => this.resolveName(name),
    };
    return host;
  }

  /** A defined name's rectangle, read like the reference it stands for (so its cell's changes recalculate). */
  private resolveName(name: string): Reference | null {
    const found = this.options.book.definedNames().find((n) => n.name.toLowerCase() === name.toLowerCase());
    if (!found?.address) return null;
    const { sheet, box } = parseQualified(found.address);
    return { kind: 'reference', sheet, top: box.row, left: box.col, bottom: box.row + box.rows - 1, right: box.col + box.cols - 1 };
  }

  private sheetName(name: string): string | undefined {
    return this.options.book.sheetNames().find((s) => s.toLowerCase() === name.toLowerCase());
  }

  private read(ref: Reference, self: Entry, pass: Pass): Matrix | CellError {
    pass.precedents.push(ref);
    const sheet = this.sheetName(ref.sheet);
    if (!sheet) return errors.ref(`There is no sheet named ${ref.sheet}`);
    // Whole columns and rows end where the sheet's used cells do.
    const extent = this.options.book.extent(sheet);
    const spill = this.spillExtent(sheet);
    const bottom = ref.bottom === MAX_ROWS - 1 ? Math.max(ref.top, Math.max(extent.rows, spill.rows) - 1) : ref.bottom;
    const right = ref.right === MAX_COLS - 1 ? Math.max(ref.left, Math.max(extent.cols, spill.cols) - 1) : ref.right;
    const rows: Matrix = [];
    for (let r = ref.top; r <= bottom; r++) {
      const row: Value[] = [];
      for (let c = ref.left; c <= right; c++) row.push(this.cellValue({ sheet, row: r, col: c }, self, pass));
      rows.push(row);
    }
    return rows;
  }

  /** A formula cell's current value for a reader; BUSY (and the reader waits) when it is not settled. */
  private formulaValue(e: Entry, self: Entry, pass: Pass): Value | Matrix {
    if (e === self) {
      pass.circular = true;
      return CIRCULAR;
    }
    if (this.dirty.has(e.key)) {
      pass.blockedOn.add(e.key);
      return BUSY;
    }
    const result = this.resultAt(e.at);
    if (!result || result.state === 'busy') {
      pass.waiting = true;
      pass.waitingOnCells = true;
      return BUSY;
    }
    return valueOf(result);
  }

  private cellValue(at: CellPosition, self: Entry, pass: Pass): Value {
    const key = positionKey(at);
    const e = this.entries.get(key);
    if (e) {
      const v = this.formulaValue(e, self, pass);
      return Array.isArray(v) ? (v[0]?.[0] ?? null) : v;
    }
    const spill = this.spillAt(at);
    if (spill) {
      const anchor = this.entries.get(positionKey(spill.anchor));
      if (anchor === self) {
        pass.circular = true;
        return CIRCULAR;
      }
      if (anchor && this.dirty.has(anchor.key)) {
        pass.blockedOn.add(anchor.key);
        return BUSY;
      }
      return spill.value;
    }
    const cell = this.options.book.cellAt(at.sheet, at.row, at.col);
    if (cell.value === '') return null;
    return typeof cell.value === 'string' ? (errorFromText(cell.value) ?? cell.value) : cell.value;
  }

  private spillRange(anchor: Reference, self: Entry, pass: Pass): Reference | CellError {
    pass.precedents.push({ ...anchor, bottom: anchor.top, right: anchor.left });
    const sheet = this.sheetName(anchor.sheet);
    const e = sheet ? this.entries.get(positionKey({ sheet, row: anchor.top, col: anchor.left })) : undefined;
    if (!e) return errors.ref('# follows the address of a cell whose formula spills');
    const v = this.formulaValue(e, self, pass);
    if (isError(v)) return v;
    return e.result.state === 'spill' ? this.resultRegion(e) : this.cellRegion(e);
  }

  private callCustom(entry: Entry, pass: Pass, name: string, args: (Result | undefined)[], host: FormulaHost): Value | Matrix {
    const call = this.custom.prepare(
      name,
      args.map((a) => (a === undefined ? undefined : deref(a, host))),
    );
    // An argument that is an error (BUSY included: the reader already waits) is the answer, uncalled.
    if (isError(call)) return call;
    pass.usedCalls.add(call.key);
    let made = entry.calls.get(call.key);
    if (!made) {
      const fresh: Call = { result: null };
      made = fresh;
      entry.calls.set(call.key, fresh);
      // A streaming function answers when it likes, maybe never: nobody waits for it to be idle.
      if (!call.info?.stream) this.pendingCalls.add(fresh);
      const { cancel } = this.custom.start(call, positionAddress(entry.at), (result) => this.answered(entry, call.key, fresh, result));
      fresh.cancel = cancel;
    }
    if (made.result === null) {
      pass.waiting = true;
      return BUSY;
    }
    return made.result.state === 'busy' ? BUSY : valueOf(made.result);
  }

  /** A FIN answer came in (or a streaming function sent a new one): its cell is calculated again. */
  private answered(entry: Entry, key: string, call: Call, result: CellResult): void {
    call.result = result;
    this.pendingCalls.delete(call);
    const current = this.entries.get(entry.key) === entry && entry.calls.get(key) === call;
    // An answer given while the cell is being calculated is used by that calculation.
    if (current && this.evaluating !== entry) {
      this.dirty.add(entry.key);
      // Calls are made only once ready: the answer shows (and its dependants follow) at once.
      if (this.running) this.schedule();
      else this.run();
    }
    this.notifyIfIdle();
  }

  // What the grid, the formula bar and Refresh all read -----------------------------------------------

  /** The result of a formula cell. */
  resultAt(at: CellPosition): CellResult | undefined {
    const e = this.entries.get(positionKey(at));
    if (!e) return undefined;
    if (e.result.state === 'spill' && this.spills().blocked.has(e.key)) {
      return { state: 'error', code: '#SPILL!', message: "The spill range isn't blank: clear the cells it needs (to the right and below)" };
    }
    return e.result;
  }

  /**
   * What Excel's Range.values reads on a sheet's formula cells and spills, by "row,col": a value, an error's
   * code, #BUSY! while calculating, each cell of a spilled array (its anchor the top-left).
   */
  calculatedOn(sheet: string): Map<string, Scalar> {
    const out = new Map<string, Scalar>();
    const same = (s: string) => s.toLowerCase() === sheet.toLowerCase();
    for (const e of this.entries.values()) {
      if (!same(e.at.sheet)) continue;
      const result = this.resultAt(e.at) ?? BUSY_RESULT;
      const value = result.state === 'busy' ? BUSY.code : result.state === 'error' ? result.code : result.state === 'value' ? result.value : result.rows[0][0];
      out.set(`${e.at.row},${e.at.col}`, value);
    }
    for (const [key, cell] of this.spills().cells) {
      if (!same(cell.anchor.sheet)) continue;
      out.set(key.slice(key.lastIndexOf('!') + 1), cell.value);
    }
    return out;
  }

  /** The value a spill puts into a cell that is not its anchor. */
  spillAt(at: CellPosition): SpillCell | undefined {
    return this.spills().cells.get(positionKey(at));
  }

  /** Sheet extent including spills (the grid shows them). */
  spillExtent(sheet: string): { rows: number; cols: number } {
    let rows = 0;
    let cols = 0;
    for (const e of this.entries.values()) {
      if (e.at.sheet.toLowerCase() !== sheet.toLowerCase() || e.result.state !== 'spill') continue;
      rows = Math.max(rows, e.at.row + e.result.rows.length);
      cols = Math.max(cols, e.at.col + e.result.rows[0].length);
    }
    return { rows, cols };
  }

  private spills(): { cells: Map<string, SpillCell>; blocked: Set<string> } {
    const version = this.options.book.getVersion() * 1e6 + this.revision;
    if (this.spillCache && this.spillCache.version === version) return this.spillCache;
    const cells = new Map<string, SpillCell>();
    const blocked = new Set<string>();
    const book = this.options.book;
    const anchors = [...this.entries.values()].filter((e) => e.result.state === 'spill').sort((a, b) => a.generation - b.generation);
    for (const e of anchors) {
      const rows = (e.result as Extract<CellResult, { state: 'spill' }>).rows;
      const claim: [string, SpillCell][] = [];
      let ok = true;
      for (let r = 0; r < rows.length && ok; r++) {
        for (let c = 0; c < rows[r].length; c++) {
          if (r === 0 && c === 0) continue;
          const at = { sheet: e.at.sheet, row: e.at.row + r, col: e.at.col + c };
          const key = positionKey(at);
          const cell = book.cellAt(at.sheet, at.row, at.col);
          if (cell.value !== '' || cell.formula || cells.has(key)) {
            ok = false;
            break;
          }
          claim.push([key, { anchor: e.at, value: rows[r][c] }]);
        }
      }
      if (ok) for (const [k, v] of claim) cells.set(k, v);
      else blocked.add(e.key);
    }
    this.spillCache = { version, cells, blocked };
    return this.spillCache;
  }

  /**
   * A full recalculation (the runtime's RuntimeHost.recalculate, which Refresh all calls after emptying the
   * cache): every formula cell is calculated again and makes its FIN calls afresh. Like Excel's calculate,
   * it resolves before the answers arrive (the runtime waits for those itself), with the formulas it
   * recalculated. With errorsOnly, only the formulas that show an error (after connecting: those that
   * showed "Not connected"). With cells, only those (a refresh of the selection or the sheet).
   */
  async recalculateAll(options: { errorsOnly?: boolean; cells?: readonly CellPosition[] } = {}): Promise<string[]> {
    await this.ready;
    const cells = this.options.book.formulas();
    for (const at of cells) if (!this.entries.has(positionKey(at))) this.formulaWritten(at);
    const only = options.cells ? new Set(options.cells.map(positionKey)) : null;
    const picked = [...this.entries.values()].filter((e) => (!options.errorsOnly || e.result.state === 'error') && (!only || only.has(e.key)));
    for (const e of picked) {
      this.drop(e);
      this.dirty.add(e.key);
    }
    this.run();
    await Promise.resolve();
    return picked.map((e) => this.cellFormula(e.at) ?? '');
  }

  /** True until every FIN call a calculation needs has been made (Excel: calculating). */
  calculating(): boolean {
    if (this.scheduled || this.dirty.size > 0) return true;
    for (const e of this.entries.values()) if (e.result.state === 'busy' && e.waitingOnCells) return true;
    return false;
  }

  private idle(): boolean {
    return !this.scheduled && this.dirty.size === 0 && this.pendingCalls.size === 0;
  }

  private notifyIfIdle(): void {
    if (this.idle()) for (const w of [...this.idleWaiters]) w();
  }

  /** Resolves when nothing is being calculated and no FIN answer is awaited. */
  whenIdle(): Promise<void> {
    if (this.idle()) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.idleWaiters.delete(done);
        resolve();
      };
      this.idleWaiters.add(done);
    });
  }

  /** Cells being calculated. */
  busyCount(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.result.state === 'busy') n++;
    return n;
  }
}
