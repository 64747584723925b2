// The workbench's calculation: every cell holding a =FIN.…(…) formula is evaluated by calling the
// function Excel would call (the one functions.ts associated under that id), with Excel's calling
// convention: one argument per declared parameter (null for an omitted optional one), then an invocation
// object; streaming functions get setResult and onCanceled. Results show in the cell; an array spills
// into the blank cells to its right and below (#SPILL! when they are not blank); a thrown or returned
// CustomFunctions.Error shows its code, and its message is kept for the formula bar.

import { plural } from '../engine/text/plural';
import { parseFinFormula, type Literal } from './finFormula';
import { positionAddress, positionKey, type CellPosition, type WorkbenchBook } from './book';
import { isCustomFunctionsError, type CustomFunction } from './customFunctionsStub';

export type Scalar = string | number | boolean;

export type CellResult =
  | { state: 'busy' }
  | { state: 'value'; value: Scalar }
  | { state: 'error'; code: string; message?: string }
  | { state: 'spill'; rows: Scalar[][] };

export interface ParameterInfo {
  name: string;
  type?: string;
  optional?: boolean;
}

/** One function of functions.json (what Excel registers). */
export interface FunctionInfo {
  id: string;
  name: string;
  parameters: ParameterInfo[];
  stream: boolean;
  cancelable: boolean;
}

interface Entry {
  at: CellPosition;
  formula: string;
  result: CellResult;
  generation: number;
  cancel?: () => void;
}

export interface SpillCell {
  anchor: CellPosition;
  value: Scalar;
}

/** functions.json's functions, by id (upper case). */
export function parseFunctionsJson(json: unknown): Map<string, FunctionInfo> {
  const out = new Map<string, FunctionInfo>();
  const list = (json as { functions?: unknown })?.functions;
  if (!Array.isArray(list)) return out;
  for (const f of list as Record<string, unknown>[]) {
    if (typeof f?.id !== 'string') continue;
    const options = (f.options ?? {}) as Record<string, unknown>;
    const parameters = Array.isArray(f.parameters) ? (f.parameters as ParameterInfo[]) : [];
    out.set(f.id.toUpperCase(), {
      id: f.id.toUpperCase(),
      name: typeof f.name === 'string' ? f.name : f.id,
      parameters: parameters.map((p) => ({ name: String(p.name), type: p.type, optional: p.optional === true })),
      stream: options.stream === true,
      cancelable: options.cancelable === true || options.stream === true,
    });
  }
  return out;
}

function toScalar(v: unknown): Scalar {
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  return '';
}

/** A function's answer as a cell result. */
export function toResult(value: unknown): CellResult {
  if (isCustomFunctionsError(value)) return { state: 'error', code: value.code, message: value.message };
  if (Array.isArray(value)) {
    if (value.length === 0 || !value.every((r) => Array.isArray(r))) {
      return { state: 'error', code: '#VALUE!', message: 'The function returned an array that is not a matrix (rows of cells)' };
    }
    const width = Math.max(...(value as unknown[][]).map((r) => r.length));
    if (width === 0) return { state: 'error', code: '#CALC!', message: 'The function returned an empty array' };
    const rows = (value as unknown[][]).map((r) => Array.from({ length: width }, (_, c) => toScalar(r[c])));
    if (rows.length === 1 && width === 1) return { state: 'value', value: rows[0][0] };
    return { state: 'spill', rows };
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return { state: 'error', code: '#NUM!' };
  if (value === null || value === undefined) return { state: 'value', value: 0 };
  return { state: 'value', value: toScalar(value) };
}

function errorResult(error: unknown): CellResult {
  if (isCustomFunctionsError(error)) return { state: 'error', code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { state: 'error', code: '#VALUE!', message: `The function threw: ${message}` };
}

/** Excel's conversion of a literal to a parameter's declared type; an error result when it cannot. */
function coerce(value: Literal, type: string | undefined, name: string): { ok: true; value: Literal } | { ok: false; message: string } {
  if (value === null || !type || type === 'any') return { ok: true, value };
  if (type === 'number') {
    if (typeof value === 'number') return { ok: true, value };
    if (typeof value === 'boolean') return { ok: true, value: value ? 1 : 0 };
    const n = Number(value.trim());
    return value.trim() !== '' && Number.isFinite(n) ? { ok: true, value: n } : { ok: false, message: `${name} must be a number` };
  }
  if (type === 'string') return { ok: true, value: typeof value === 'boolean' ? (value ? 'TRUE' : 'FALSE') : String(value) };
  if (type === 'boolean') {
    if (typeof value === 'boolean') return { ok: true, value };
    if (typeof value === 'number') return { ok: true, value: value !== 0 };
    if (/^(true|false)$/i.test(value)) return { ok: true, value: /^true$/i.test(value) };
    return { ok: false, message: `${name} must be TRUE or FALSE` };
  }
  return { ok: true, value };
}

export interface FormulaEngineOptions {
  book: WorkbenchBook;
  /** The associated functions (customFunctionsStub's registry). */
  functions: Map<string, CustomFunction>;
  /** functions.json, once loaded; without it the parameter count comes from the function's length. */
  metadata: Promise<Map<string, FunctionInfo>>;
  namespace?: string;
}

export class FormulaEngine {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private info = new Map<string, FunctionInfo>();
  private readonly ready: Promise<void>;
  private spillCache: { version: number; cells: Map<string, SpillCell>; blocked: Set<string> } | null = null;
  private revision = 0;
  private readonly namespace: string;
  private pending = 0;
  /** Evaluations that have not yet called their function or given up before calling it. */
  private dispatching = 0;
  private readonly idleWaiters = new Set<() => void>();

  constructor(private readonly options: FormulaEngineOptions) {
    this.namespace = options.namespace ?? 'FIN';
    this.ready = options.metadata.then(
      (info) => {
        this.info = info;
      },
      () => undefined,
    );
    options.book.onFormulaWritten((at) => void this.evaluate(at));
    options.book.subscribe(() => this.prune());
  }

  /** Functions known (for the formula box's hints). */
  functionInfo(): Map<string, FunctionInfo> {
    return this.info;
  }

  private changed(): void {
    this.revision += 1;
    this.spillCache = null;
    this.options.book.touch();
  }

  /** Drops results of cells whose formula was overwritten (a block rewritten over it, a typed value). */
  private prune(): void {
    let dropped = false;
    for (const [key, e] of this.entries) {
      const now = this.cellFormula(e.at);
      if (now !== e.formula) {
        if (now === undefined) {
          e.cancel?.();
          this.entries.delete(key);
          dropped = true;
        }
      }
    }
    if (dropped) {
      this.revision += 1;
      this.spillCache = null;
    }
  }

  private cellFormula(at: CellPosition): string | undefined {
    try {
      return this.options.book.cellAt(at.sheet, at.row, at.col).formula;
    } catch {
      return undefined; // the sheet is gone
    }
  }

  /** The result of a formula cell. */
  resultAt(at: CellPosition): CellResult | undefined {
    const e = this.entries.get(positionKey(at));
    if (!e) return undefined;
    if (e.result.state === 'spill' && this.spills().blocked.has(positionKey(at))) {
      return { state: 'error', code: '#SPILL!', message: "The spill range isn't blank: clear the cells it needs (to the right and below)" };
    }
    return e.result;
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
      else blocked.add(positionKey(e.at));
    }
    this.spillCache = { version, cells, blocked };
    return this.spillCache;
  }

  /** Evaluates the formula in a cell (Excel: entering it, or a recalculation). */
  async evaluate(at: CellPosition): Promise<void> {
    const formula = this.cellFormula(at);
    if (!formula) return;
    const key = positionKey(at);
    this.entries.get(key)?.cancel?.();
    const entry: Entry = { at, formula, result: { state: 'busy' }, generation: ++this.generation };
    this.entries.set(key, entry);
    this.pending += 1;
    this.dispatching += 1;
    let dispatched = false;
    const dispatch = () => {
      if (!dispatched) this.dispatching -= 1;
      dispatched = true;
    };
    this.changed();
    const current = () => this.entries.get(key) === entry;
    const settle = (result: CellResult) => {
      if (!current()) return;
      entry.result = result;
      this.changed();
    };
    try {
      await this.ready;
      if (!current()) return;
      const parsed = parseFinFormula(formula);
      if (!parsed.ok) {
        settle({ state: 'error', code: /namespace|functions only/.test(parsed.message) ? '#NAME?' : '#VALUE!', message: parsed.message });
        return;
      }
      const { name, args } = parsed.call;
      const fn = this.options.functions.get(name);
      const label = `${this.namespace}.${name}`;
      if (!fn) {
        settle({ state: 'error', code: '#NAME?', message: `${label} is not a function of this add-in` });
        return;
      }
      const info = this.info.get(name);
      const params: ParameterInfo[] = info?.parameters ?? Array.from({ length: Math.max(0, fn.length - 1) }, (_, i) => ({ name: `argument ${i + 1}` }));
      if (args.length > params.length) {
        settle({ state: 'error', code: '#VALUE!', message: `${label} takes at most ${plural(params.length, 'argument')}` });
        return;
      }
      const values: Literal[] = [];
      for (let i = 0; i < params.length; i++) {
        const p = params[i];
        const given = i < args.length ? args[i] : null;
        if (given === null && info && !p.optional) {
          settle({ state: 'error', code: '#VALUE!', message: `${label} needs its ${p.name} argument` });
          return;
        }
        const c = coerce(given, p.type, p.name);
        if (!c.ok) {
          settle({ state: 'error', code: '#VALUE!', message: c.message });
          return;
        }
        values.push(c.value);
      }
      const invocation: Record<string, unknown> = {
        address: positionAddress(at),
        functionName: label,
        parameterAddresses: values.map(() => ''),
        isInValuePreview: false,
      };
      if (info?.stream) {
        invocation.setResult = (value: unknown) => settle(toResult(value));
        invocation.onCanceled = () => undefined;
        entry.cancel = () => (invocation.onCanceled as () => void)();
        try {
          fn(...values, invocation);
        } catch (error) {
          settle(errorResult(error));
        } finally {
          dispatch();
        }
        return;
      }
      if (info?.cancelable) {
        invocation.onCanceled = () => undefined;
        entry.cancel = () => (invocation.onCanceled as () => void)();
      }
      try {
        const answer = fn(...values, invocation);
        dispatch();
        settle(toResult(await answer));
      } catch (error) {
        settle(errorResult(error));
      }
    } finally {
      dispatch();
      this.pending -= 1;
      if (this.pending === 0) for (const w of [...this.idleWaiters]) w();
    }
  }

  /**
   * A full recalculation (the runtime's RuntimeHost.recalculate, which Refresh all calls after emptying the
   * cache): every formula cell is evaluated again. Like Excel's calculate, it resolves before the answers
   * arrive (the runtime waits for those itself), with the formulas it recalculated.
   */
  async recalculateAll(): Promise<string[]> {
    await this.ready;
    const cells = this.options.book.formulas();
    const formulas = cells.map((at) => this.cellFormula(at) ?? '');
    for (const at of cells) void this.evaluate(at);
    await Promise.resolve();
    return formulas;
  }

  /** True until every evaluation started has called its function or given up (Excel: calculating). */
  calculating(): boolean {
    return this.dispatching > 0;
  }

  /** Resolves when no evaluation is running (for the workbench's status line). */
  whenIdle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
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
