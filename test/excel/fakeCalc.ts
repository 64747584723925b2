/**
 * Excel's calculation, as much of it as the add-in's recalculation meets, for FakeExcel (plug it in with
 * `new FakeCalc(excel, fin)`). Formulas are read from the cells; only a small grammar is evaluated (numbers,
 * cell and range references, + - * /, parentheses, SUM); a formula outside it keeps the value it has. A
 * formula that calls FIN is a custom function: the test's `fin` answers it, now or later. What Excel does,
 * from Microsoft's docs and the office-js tracker:
 *  - Range.calculate / RangeAreas.calculate calculates the cells and their direct dependents, not the
 *    dependents of those (OfficeDev/office-js#5063, #6555, #6885): when a custom function's answer arrives,
 *    the cells marked then are calculated again, and the chain stops there;
 *  - a custom function calculating again keeps its previous value on show until its answer arrives
 *    (office-js#4152: a spinner, not #BUSY!);
 *  - Worksheet.calculate(markAllDirty) calculates every formula of the sheet (assumed the same without
 *    markAllDirty: the pessimistic reading for the add-in, which never relies on dirtiness);
 *  - Range.getDependents (ExcelApi 1.15) lists every dependent at any depth, getDirectDependents (1.13) the
 *    first level; both throw ItemNotFound when there are none (the typings: "Throws an ItemNotFound error if
 *    no dependents are found");
 *  - inserting or deleting rows or cells and grouping or ungrouping rows calculate every custom function
 *    again, non-volatile ones included (office-js#3332, #3911: by design);
 *  - Application.calculationState is Calculating while a custom function works, and stays Pending for ever
 *    when a chart reads a volatile function such as TODAY (office-js#3319: `volatileChart`), and on Excel on
 *    the web whenever the workbook holds a chart at all (office-js#4760, open: `onTheWeb`);
 *  - IF evaluates only the branch it takes: a custom function in the other one is not called (Microsoft Tech
 *    Community, "AND short circuit?": AND and IFS evaluate every argument, nested IFs only as needed). The
 *    fake knows the form the add-in writes, =IF(<comparison>,NA(),<formula>);
 *  - a custom function whose arguments hold an error (a cell or a range with one) is not called: the cell shows
 *    that error (Microsoft, "Handle and return errors from your custom function": error inputs reach a
 *    function only when its metadata allows them, which the add-in's do not).
 * Entering a formula is not calculated here: tests set the values a workbook shows before a refresh.
 */
import { a1, FakeOfficeError, itemNotFound, MAX_COLS, parseA1, type Box, type CalcModel, type CellValue, type FakeExcel, type SheetState } from './fakeExcel';

/** A custom function's call as the fake makes it: the cell's formula and where it is. */
export interface CustomCall {
  sheet: string;
  address: string;
  formula: string;
}

/** What the test's custom functions answer: a value now, or later (a promise), or never (a promise that never settles). */
export type CustomFunctions = (call: CustomCall) => CellValue | Promise<CellValue>;

interface Ref {
  /** Lower-cased sheet name; undefined: the formula's own sheet. */
  sheet?: string;
  box: Box;
}

type Token = { kind: 'num'; value: number } | { kind: 'str' } | { kind: 'ref'; ref: Ref } | { kind: 'name'; value: string } | { kind: 'op'; value: string };

const FIN_CALL = /(^|[^A-Za-z0-9_.])FIN\.[A-Za-z]/i;
const TOKEN = /\s*(?:("(?:[^"]|"")*")|((?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!)?(\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?)(?![A-Za-z0-9_(])|(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|([A-Za-z_][A-Za-z0-9_.]*)|([-+*/(),:&<>=^%]))/y;

function tokenize(formula: string): Token[] | null {
  const out: Token[] = [];
  const text = formula.replace(/^=/, '');
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m || m.index !== at) {
      if (/^\s*$/.test(text.slice(at))) break;
      return null;
    }
    if (m[1] !== undefined) out.push({ kind: 'str' });
    else if (m[3] !== undefined) {
      const sheet = m[2]?.slice(0, -1).replace(/^'(.*)'$/, '$1').replace(/''/g, "'").toLowerCase();
      out.push({ kind: 'ref', ref: { sheet, box: parseA1(m[3].replace(/\$/g, '')) } });
    } else if (m[4] !== undefined) out.push({ kind: 'num', value: Number(m[4]) });
    else if (m[5] !== undefined) out.push({ kind: 'name', value: m[5].toUpperCase() });
    else out.push({ kind: 'op', value: m[6] });
  }
  return out;
}

interface CellKey {
  sheet: SheetState;
  row: number;
  col: number;
}

const keyOf = (c: CellKey) => `${c.sheet.id}!${c.row},${c.col}`;

const inside = (box: Box, row: number, col: number) => row >= box.row && row < box.row + box.rows && col >= box.col && col < box.col + box.cols;

export class FakeCalc implements CalcModel {
  /** Custom function calls made so far (each recalculation of a FIN cell is one). */
  readonly calls: CustomCall[] = [];
  /** A chart on a volatile function keeps calculationState Pending (office-js#3319). */
  volatileChart = false;
  /** Excel on the web: any chart in the workbook keeps calculationState Pending (office-js#4760). */
  onTheWeb = false;
  /** Cells marked by a calculation, calculated again when a custom function's answer arrives. */
  private readonly dirty = new Map<string, CellKey>();
  private pending = 0;
  /** Formulas read into tokens, by their text (a model repeats a few formulas thousands of times). */
  private readonly tokens = new Map<string, Token[]>();
  private readonly waiters: (() => void)[] = [];

  constructor(
    private readonly excel: FakeExcel,
    private readonly fin: CustomFunctions,
  ) {
    excel.calc = this;
    this.publishState();
  }

  // What ExcelHost calls -------------------------------------------------------------------------------

  calculate(sheet: SheetState, boxes: Box[]): void {
    const cells = boxes.flatMap((box) => this.formulaCellsIn(sheet, box));
    const seen = new Set(cells.map(keyOf));
    const direct = this.dependentsOf(cells, false).filter((c) => !seen.has(keyOf(c)));
    this.run(cells, [...cells, ...direct]);
  }

  calculateSheet(sheet: SheetState): void {
    const cells = this.formulaCellsIn(sheet, { row: 0, col: 0, rows: 1_048_576, cols: MAX_COLS });
    this.run(cells, cells);
  }

  calculateAll(type: string): void {
    if (type === 'Full' || type === 'FullRebuild') for (const sheet of this.excel.sheets) this.calculateSheet(sheet);
    else this.recompute();
  }

  dependents(sheet: SheetState, box: Box, direct: boolean): { sheet: SheetState; box: Box }[] {
    const cells = this.formulaCellsIn(sheet, box);
    // Assumed, Microsoft does not say: a dependent inside the range asked about is not listed (the pessimistic
    // reading for the add-in, which asks about a column's FIN cells with the subtotals between them).
    const inBox = (c: CellKey) => c.sheet === sheet && inside(box, c.row, c.col);
    // The box's own cells, constants too, are the precedents looked for.
    const found = this.dependentsOf([...cells, ...this.cellsOf(sheet, box)], !direct).filter((c) => !inBox(c));
    if (found.length === 0) throw itemNotFound('no dependents were found');
    return found.map((c) => ({ sheet: c.sheet, box: { row: c.row, col: c.col, rows: 1, cols: 1 } }));
  }

  structureChanged(): void {
    const customs = this.excel.sheets.flatMap((sheet) => this.formulaCellsIn(sheet, { row: 0, col: 0, rows: 1_048_576, cols: MAX_COLS })).filter((c) => this.isCustom(c));
    this.run(customs, [...customs, ...this.dependentsOf(customs, false)]);
  }

  // For tests --------------------------------------------------------------------------------------------

  /** Resolves once no custom function is waiting for its answer. */
  whenIdle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Custom function calls still waiting for their answer. */
  get waiting(): number {
    return this.pending;
  }

  // The model --------------------------------------------------------------------------------------------

  private run(calculated: CellKey[], marked: CellKey[]): void {
    for (const c of marked) if (!this.isCustom(c)) this.dirty.set(keyOf(c), c);
    for (const c of calculated) if (this.isCustom(c)) this.invoke(c);
    this.recompute();
    this.publishState();
  }

  /** True when the cell's IF takes its NA() branch: its custom function is not called. */
  private skipsCall(sheet: SheetState, formula: string): boolean {
    const m = /^=IF\(([^,<>=]+)(>=|<=|<>|>|<|=)([^,]+),NA\(\),/i.exec(formula);
    if (!m) return false;
    const [left, right] = [this.evaluate(sheet, `=${m[1]}`), this.evaluate(sheet, `=${m[3]}`)];
    if (typeof left !== 'number' || typeof right !== 'number') return false;
    return { '>': left > right, '<': left < right, '>=': left >= right, '<=': left <= right, '=': left === right, '<>': left !== right }[m[2]]!;
  }

  /** The first error value in the cells a formula that is one custom function call reads, if any. */
  private errorIn(c: CellKey): string | undefined {
    if (!/^=FIN\.[A-Z_.]+\([^()]*\)$/i.test(c.sheet.get(c.row, c.col)?.formula ?? '')) return undefined;
    for (const { sheet, box } of this.refsOf(c)) {
      for (let r = box.row; r < box.row + box.rows; r++) {
        for (let col = box.col; col < box.col + box.cols; col++) {
          const v = sheet.get(r, col)?.value;
          if (typeof v === 'string' && /^#(NULL!|DIV\/0!|VALUE!|REF!|NAME\?|NUM!|N\/A)$/.test(v)) return v;
        }
      }
    }
    return undefined;
  }

  private invoke(c: CellKey): void {
    const cell = c.sheet.get(c.row, c.col)!;
    if (this.skipsCall(c.sheet, cell.formula!)) {
      cell.value = '#N/A';
      return;
    }
    const error = this.errorIn(c);
    if (error !== undefined) {
      cell.value = error;
      return;
    }
    const call: CustomCall = { sheet: c.sheet.name, address: a1({ row: c.row, col: c.col, rows: 1, cols: 1 }), formula: cell.formula! };
    this.calls.push(call);
    const answer = this.fin(call);
    if (!(answer instanceof Promise)) {
      cell.value = answer;
      return;
    }
    // Until the answer arrives, the cell shows its previous value (#4152).
    this.pending += 1;
    this.publishState();
    const arrive = (value: CellValue) => {
      if (c.sheet.get(c.row, c.col)?.formula === call.formula) cell.value = value;
      this.pending -= 1;
      this.recompute();
      if (this.pending === 0) this.dirty.clear();
      this.publishState();
      if (this.pending === 0) for (const w of this.waiters.splice(0)) w();
    };
    answer.then(arrive, () => arrive('#VALUE!'));
  }

  /** The marked cells calculated again: passes until nothing changes, so a chain among them settles in any order. */
  private recompute(): void {
    const cells = [...this.dirty.values()];
    for (let pass = 0; pass <= cells.length; pass++) {
      let changed = false;
      for (const c of cells) {
        const cell = c.sheet.get(c.row, c.col);
        if (!cell?.formula) continue;
        const value = this.evaluate(c.sheet, cell.formula);
        if (value !== undefined && value !== cell.value) {
          cell.value = value;
          changed = true;
        }
      }
      if (!changed) break;
    }
    if (this.pending === 0) this.dirty.clear();
  }

  private publishState(): void {
    const charts = this.onTheWeb && this.excel.sheets.some((sheet) => sheet.charts.length > 0);
    this.excel.calculationState = this.pending > 0 ? 'Calculating' : this.volatileChart || charts ? 'Pending' : 'Done';
  }

  private isCustom(c: CellKey): boolean {
    return FIN_CALL.test((c.sheet.get(c.row, c.col)?.formula ?? '').replace(/"(?:[^"]|"")*"/g, '""'));
  }

  private cellsOf(sheet: SheetState, box: Box): CellKey[] {
    // A small box is walked as it is; a large one within what the sheet uses.
    const used = box.rows * box.cols <= 10_000 ? box : sheet.used(false);
    if (!used) return [];
    const out: CellKey[] = [];
    const top = Math.max(box.row, used.row);
    const bottom = Math.min(box.row + box.rows, used.row + used.rows);
    const left = Math.max(box.col, used.col);
    const right = Math.min(box.col + box.cols, used.col + used.cols);
    for (let col = left; col < right; col++) for (let row = top; row < bottom; row++) if (sheet.get(row, col)) out.push({ sheet, row, col });
    return out;
  }

  private formulaCellsIn(sheet: SheetState, box: Box): CellKey[] {
    return this.cellsOf(sheet, box).filter((c) => c.sheet.get(c.row, c.col)?.formula !== undefined);
  }

  private refsOf(c: CellKey): { sheet: SheetState; box: Box }[] {
    const formula = c.sheet.get(c.row, c.col)?.formula ?? '';
    let tokens = this.tokens.get(formula);
    if (!tokens) this.tokens.set(formula, (tokens = tokenize(formula) ?? []));
    return tokens.flatMap((t) => {
      if (t.kind !== 'ref') return [];
      const sheet = t.ref.sheet === undefined ? c.sheet : this.excel.findSheet(t.ref.sheet);
      return sheet ? [{ sheet, box: t.ref.box }] : [];
    });
  }

  /** Formula cells that read any of `cells`: the first level, or every level. */
  private dependentsOf(cells: CellKey[], allLevels: boolean): CellKey[] {
    // Only formulas that read a cell can depend on one.
    const formulas = this.excel.sheets
      .flatMap((s) => this.formulaCellsIn(s, { row: 0, col: 0, rows: 1_048_576, cols: MAX_COLS }))
      .map((f) => ({ f, refs: this.refsOf(f) }))
      .filter((x) => x.refs.length > 0)
      .map((x) => x.f);
    const reads = new Map(formulas.map((f) => [keyOf(f), this.refsOf(f)]));
    const found = new Map<string, CellKey>();
    let frontier = cells;
    while (frontier.length > 0) {
      const keys = new Set(frontier.map(keyOf));
      const readsFrontier = (r: { sheet: SheetState; box: Box }) => {
        if (r.box.rows * r.box.cols > frontier.length) return frontier.some((c) => c.sheet === r.sheet && inside(r.box, c.row, c.col));
        for (let row = r.box.row; row < r.box.row + r.box.rows; row++) {
          for (let col = r.box.col; col < r.box.col + r.box.cols; col++) if (keys.has(keyOf({ sheet: r.sheet, row, col }))) return true;
        }
        return false;
      };
      const next: CellKey[] = [];
      for (const f of formulas) {
        if (found.has(keyOf(f)) || !reads.get(keyOf(f))!.some(readsFrontier)) continue;
        found.set(keyOf(f), f);
        next.push(f);
      }
      frontier = allLevels ? next : [];
    }
    return [...found.values()];
  }

  /** A formula's value in the small grammar, or undefined outside it (the cell keeps what it shows). */
  private evaluate(sheet: SheetState, formula: string): CellValue | undefined {
    if (FIN_CALL.test(formula)) return undefined;
    const tokens = tokenize(formula);
    if (!tokens) return undefined;
    let i = 0;
    const peek = () => tokens[i];
    const fail = () => {
      throw new FakeOfficeError('NotImplemented', 'outside the grammar');
    };
    const cellNumber = (s: SheetState, row: number, col: number) => {
      const v = s.get(row, col)?.value;
      return typeof v === 'number' ? v : 0;
    };
    const refSheet = (ref: Ref) => (ref.sheet === undefined ? sheet : (this.excel.findSheet(ref.sheet) ?? fail()));
    const sum = (ref: Ref) => {
      const s = refSheet(ref);
      let total = 0;
      for (let r = 0; r < ref.box.rows; r++) for (let c = 0; c < ref.box.cols; c++) total += cellNumber(s, ref.box.row + r, ref.box.col + c);
      return total;
    };
    const factor = (): number => {
      const t = tokens[i++];
      if (!t) return fail();
      if (t.kind === 'num') return t.value;
      if (t.kind === 'ref') return t.ref.box.rows === 1 && t.ref.box.cols === 1 ? sum(t.ref) : fail();
      if (t.kind === 'op' && t.value === '-') return -factor();
      if (t.kind === 'op' && t.value === '(') {
        const v = expr();
        const close = tokens[i++];
        if (!(close?.kind === 'op' && close.value === ')')) fail();
        return v;
      }
      if (t.kind === 'name' && t.value === 'SUM' && peek()?.kind === 'op') {
        i++; // (
        let total = 0;
        for (;;) {
          const next = peek();
          if (next?.kind === 'ref') {
            i++;
            total += sum(next.ref);
          } else total += expr();
          const sep = tokens[i++];
          if (sep?.kind === 'op' && sep.value === ')') return total;
          if (!(sep?.kind === 'op' && sep.value === ',')) fail();
        }
      }
      return fail();
    };
    const term = (): number => {
      let v = factor();
      for (let t = peek(); t?.kind === 'op' && (t.value === '*' || t.value === '/'); t = peek()) {
        i++;
        v = t.value === '*' ? v * factor() : v / factor();
      }
      return v;
    };
    const expr = (): number => {
      let v = term();
      for (let t = peek(); t?.kind === 'op' && (t.value === '+' || t.value === '-'); t = peek()) {
        i++;
        v = t.value === '+' ? v + term() : v - term();
      }
      return v;
    };
    try {
      const v = expr();
      return i === tokens.length ? v : undefined;
    } catch {
      return undefined;
    }
  }
}
