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
import type { FinCall } from './finCall';

/** A FIN cell as the host finds it in a scope: where, and how many FIN calls its formula makes. */
export interface FinCell {
  sheet: string;
  row: number;
  col: number;
  calls: number;
  /** Its formula names the reporting period (FIN_PERIOD): it recalculates when the period moves. */
  readsPeriod?: boolean;
}

export interface CallReads {
  /** The call, to know it again when the cell is recalculated (compared, never serialized: this is the hot path). */
  name: string;
  args: readonly unknown[];
  /** When the call was last evaluated here (a counter, so two calls of one recalculation keep their order). */
  at: number;
  /** The company argument as the cell gave it (a connection's name or company id; none: the default one). */
  company: string | undefined;
  /** The invocation it was last evaluated for (a FinCall is made per invocation, functions.ts). */
  invocation: FinCall;
  /** What its last evaluation read, as read (a repeat is dropped only when priced). */
  requests: ReadRequest[];
}

/** An evaluation as this keeps its reads (reads.ts's Evaluation): its call, and the record it reads into. */
interface Reading {
  readonly call?: FinCall;
  readonly preview: boolean;
  cellRecord?: CallReads;
}

/** Calls kept per cell: a formula that stops making one leaves it behind until this many newer ones come. */
const MAX_CALLS_PER_CELL = 16;

function sameCall(reads: CallReads, call: FinCall): boolean {
  if (reads.name !== call.name || reads.args.length !== call.args.length) return false;
  for (let i = 0; i < call.args.length; i++) if (reads.args[i] !== call.args[i]) return false;
  return true;
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
  /**
   * By the address exactly as Excel gave it: reading it into a sheet and a cell is left to pricing, off the
   * recalculation's hot path (12,500 cells handed over in one go).
   */
  private readonly cells = new Map<string, CallReads[]>();
  /** Cell id -> the addresses recorded for it, built when priced and rebuilt when new addresses came. */
  private index: { size: number; byCell: Map<string, string[]> } | null = null;
  private clock = 0;

  private byCell(): Map<string, string[]> {
    if (this.index?.size === this.cells.size) return this.index.byCell;
    const byCell = new Map<string, string[]>();
    for (const address of this.cells.keys()) {
      const cell = cellOfAddress(address);
      if (!cell) continue; // not an address: never priced
      const id = cellId(cell.sheet, cell.row, cell.col);
      byCell.set(id, [...(byCell.get(id) ?? []), address]);
    }
    this.index = { size: this.cells.size, byCell };
    return byCell;
  }

  /**
   * A request the evaluation `ev` read, kept for its call's cell. Excel hands a recalculation's cells over in
   * one synchronous loop: this runs at the evaluation's reads, in the service's slices, never in that loop.
   */
  note(ev: Reading, req: ReadRequest): void {
    const call = ev.call;
    if (!call?.address || ev.preview) return;
    (ev.cellRecord ??= this.recordFor(call.address, call)).requests.push(req);
  }

  /**
   * The evaluation `ev` settled: its cell is known to read what it noted, nothing at all if it noted nothing
   * (FIN.BUDGET reads the workbook only), so pricing never counts such a cell as not calculated yet.
   */
  answered(ev: Reading): void {
    const call = ev.call;
    if (!call?.address || ev.preview) return;
    ev.cellRecord ??= this.recordFor(call.address, call);
  }

  /**
   * Whether the call's cell made this same call at an earlier invocation: Excel calculating the cell again
   * (rows inserted, a refresh), not a formula just typed or edited. Asked before the evaluation's first read.
   */
  madeBefore(call: FinCall): boolean {
    if (!call.address) return false;
    return this.cells.get(call.address)?.some((c) => c.invocation !== call && sameCall(c, call)) ?? false;
  }

  /**
   * The record of this call in this cell, emptied for a new evaluation: a new invocation from Excel. A group's
   * companies evaluate one invocation each (runtime/groups.ts): their reads add up in the one record.
   */
  private recordFor(address: string, call: FinCall): CallReads {
    let calls = this.cells.get(address);
    if (!calls) this.cells.set(address, (calls = []));
    let reads = calls.find((c) => sameCall(c, call));
    if (!reads) {
      reads = { name: call.name, args: call.args, at: 0, company: call.company, invocation: call, requests: [] };
      calls.push(reads);
      if (calls.length > MAX_CALLS_PER_CELL) calls.sort((a, b) => b.at - a.at).length = MAX_CALLS_PER_CELL;
    } else if (reads.invocation !== call) {
      reads.invocation = call;
      reads.company = call.company;
      reads.requests.length = 0;
    }
    reads.at = ++this.clock;
    return reads;
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
    const byCell = this.byCell();
    for (const cell of cells) {
      // A cell whose IF leaves its FIN calls out now (finGuard) reads nothing when recalculated.
      if (cell.calls === 0) continue;
      const calls = (byCell.get(cellId(cell.sheet, cell.row, cell.col)) ?? []).flatMap((address) => this.cells.get(address) ?? []);
      if (calls.length === 0) {
        unknown += 1;
        continue;
      }
      const latest = [...calls].sort((a, b) => b.at - a.at).slice(0, Math.max(1, cell.calls));
      for (const c of latest) {
        if (!ofCompany(c.company)) elsewhere += 1;
        else for (const req of c.requests) requests.set(requestKey(req), req);
      }
    }
    return { requests: [...requests.values()], unknown, elsewhere };
  }
}
