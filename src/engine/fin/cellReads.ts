// Which requests each FIN cell read, by the cell's address (issue 14: refresh the selection or the sheet at
// an exact cost). Excel hands every evaluation its cell's address (the functions are declared
// @requiresAddress), and the evaluation tells what it reads (EvalContext.noteRead); this keeps the last
// evaluation of each call per cell. A scoped refresh marks exactly those requests due, prices them before it
// spends, and recalculates only the cells in its scope.
//
// A cell may hold several FIN calls (=FIN.PNL(...)-FIN.PNL(...)), so a cell keeps one entry per call. When
// its formula changes, the calls it no longer makes linger until the cell is looked at: `requestsOf` keeps
// only as many of a cell's most recent calls as its formula holds now, so a stale entry never adds to a cost.

import { GatewayError } from '../ports/workbook';
import { parseQualified } from '../ports/address';
import { requestKey, type ReadRequest } from '../reader/requestCache';
import { callKey, type FinCall } from './notConnectedCost';
import type { EvalContext } from './reads';

/** A FIN cell as the host finds it in a scope: where, and how many FIN calls its formula makes. */
export interface FinCell {
  sheet: string;
  row: number;
  col: number;
  calls: number;
}

interface CallReads {
  /** When the call was last evaluated here (a counter, so two calls of one recalculation keep their order). */
  at: number;
  /** The company argument as the cell gave it (a connection's name or company id; none: the default one). */
  company: string | undefined;
  requests: Map<string, ReadRequest>;
}

/** "Sheet1!B2", "'P&L ''26'!B2" or "[Book1]Sheet1!B2" (Excel's forms of an invocation address) -> the cell. */
export function cellOfAddress(address: string): { sheet: string; row: number; col: number } | null {
  try {
    // The workbook prefix, where a host gives one: sheet names cannot hold brackets.
    const bare = address.replace(/^'?\[[^\]]*\]/, (m) => (m.startsWith("'") ? "'" : ''));
    const { sheet, box } = parseQualified(bare);
    return { sheet, row: box.row, col: box.col };
  } catch (error) {
    if (error instanceof GatewayError) return null;
    throw error;
  }
}

const cellId = (sheet: string, row: number, col: number): string => `${sheet.toLowerCase()}!${row}:${col}`;

export class CellReads {
  private readonly cells = new Map<string, Map<string, CallReads>>();
  /** Each address read once: a recalculation evaluates the same cells again and again. */
  private readonly ids = new Map<string, string | null>();
  private clock = 0;

  private idOf(address: string): string | null {
    let id = this.ids.get(address);
    if (id === undefined) {
      const cell = cellOfAddress(address);
      id = cell ? cellId(cell.sheet, cell.row, cell.col) : null;
      this.ids.set(address, id);
    }
    return id;
  }

  /** The evaluation context of one call in the cell at `address`: what it reads is noted for the cell. */
  context(address: string, call: FinCall, base: EvalContext, company?: string): EvalContext {
    const id = this.idOf(address);
    if (id === null) return base;
    const calls = this.cells.get(id) ?? new Map<string, CallReads>();
    this.cells.set(id, calls);
    const reads: CallReads = { at: ++this.clock, company, requests: new Map() };
    calls.set(callKey(call), reads);
    const outer = base.noteRead;
    return {
      ...base,
      noteRead: (req) => {
        reads.requests.set(requestKey(req), req);
        outer?.(req);
      },
    };
  }

  /**
   * The distinct requests the given cells read when last evaluated from one company (`ofCompany` says which
   * company arguments are it), how many cells have no record (not evaluated since the add-in started: a
   * workbook just opened whose cells Excel has not recalculated), and how many calls read another company.
   */
  requestsOf(cells: readonly FinCell[], ofCompany: (company: string | undefined) => boolean = () => true): { requests: ReadRequest[]; unknown: number; elsewhere: number } {
    const requests = new Map<string, ReadRequest>();
    let unknown = 0;
    let elsewhere = 0;
    for (const cell of cells) {
      const calls = this.cells.get(cellId(cell.sheet, cell.row, cell.col));
      if (!calls || calls.size === 0) {
        unknown += 1;
        continue;
      }
      const latest = [...calls.values()].sort((a, b) => b.at - a.at).slice(0, Math.max(1, cell.calls));
      for (const c of latest) {
        if (!ofCompany(c.company)) elsewhere += 1;
        else for (const [key, req] of c.requests) requests.set(key, req);
      }
    }
    return { requests: [...requests.values()], unknown, elsewhere };
  }

  /** Forgets everything (a new connection: the requests were another company's). */
  clear(): void {
    this.cells.clear();
    this.ids.clear();
  }
}
