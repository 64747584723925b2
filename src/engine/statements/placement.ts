// Where a statement block is now, and whether a refresh may write there. A block is found by the defined
// name it was written with, which Excel moves with its cells (rows inserted above, the sheet renamed). A
// block whose cells were deleted, or that had rows or columns inserted or deleted inside it, is damaged: it
// is not written, and the user is told what happened and what to do. A block that grows never writes over
// what the user typed below or beside it: the refresh is refused with the cells named (inserting cells
// instead would shift the user's own layout under the block's columns only, and silently misalign it).

import { parseQualified, qualify, type Box } from '../ports/address';
import { GatewayError, type BindingRecord, type WorkbookGateway } from '../ports/workbook';
import { Refusal } from '../refusal';
import { plural } from '../text/plural';
import { describeSpec, type StatementSpec } from './spec';

/** The defined name a block is written with: its binding id, made a legal name. */
export function blockName(bindingId: string): string {
  return `FinBlock_${bindingId.replace(/[^A-Za-z0-9_.]/g, '_')}`;
}

export type Placement =
  /** Found by its name, at this sheet-qualified address. */
  | { kind: 'named'; address: string }
  /** Recorded by an earlier version without a name: only its address is known, rows inserted above are not followed. */
  | { kind: 'recorded'; address: string }
  /** Its cells were deleted or reshaped: not written; `refusal` says what happened and what to do. */
  | { kind: 'damaged'; refusal: Refusal };

function damaged(spec: StatementSpec, binding: BindingRecord, what: string): Placement {
  const message = `${describeSpec(spec)}, last written at ${binding.address}: ${what}. Its cells are left as they are. Forget it, then insert it again.`;
  return { kind: 'damaged', refusal: new Refusal('Block damaged', message, 'block_damaged') };
}

function reshaped(now: { rows: number; cols: number }, was: Box): string | null {
  const changes: string[] = [];
  if (now.rows !== was.rows) changes.push(`rows were ${now.rows < was.rows ? 'deleted' : 'inserted'} inside it`);
  if (now.cols !== was.cols) changes.push(`columns were ${now.cols < was.cols ? 'deleted' : 'inserted'} inside it`);
  if (changes.length === 0) return null;
  return `${changes.join(' and ')} (it has ${plural(now.rows, 'row')} and ${plural(now.cols, 'column')} where it was written with ${was.rows} and ${was.cols})`;
}

/** Where the block is now: by its name, by its recorded address (no name yet), or damaged. No API call. */
export async function placeBlock(gateway: WorkbookGateway, binding: BindingRecord, spec: StatementSpec): Promise<Placement> {
  if (!binding.name) return { kind: 'recorded', address: binding.address };
  const found = await gateway.locateBlock(binding.name);
  if (found.state === 'missing') return damaged(spec, binding, `its name (${binding.name}) is no longer in the workbook, so where it is now cannot be told`);
  if (found.state === 'broken') return damaged(spec, binding, 'its cells were deleted (all its rows, or its sheet)');
  const change = reshaped({ rows: found.rowCount, cols: found.columnCount }, parseQualified(binding.address).box);
  if (change) return damaged(spec, binding, `${change}, now at ${found.address}`);
  return { kind: 'named', address: found.address };
}

export function isDamage(error: unknown): boolean {
  return error instanceof Refusal && error.code === 'block_damaged';
}

/**
 * Excel refused while another workbook or window was in front: a run of blocks stops there, since the blocks
 * after it would fail alike after their reports were fetched; the error says to come back.
 */
export function isInactive(error: unknown): boolean {
  return error instanceof GatewayError && error.code === 'Inactive';
}

/**
 * Refuses a refresh that would write a grown block over the user's cells: the rows below the block and the
 * columns right of it that the new grid needs must be blank.
 */
export async function checkRoom(
  gateway: WorkbookGateway,
  spec: StatementSpec,
  at: string,
  grid: { rows: number; cols: number },
): Promise<void> {
  const { sheet, box } = parseQualified(at);
  const strips: Box[] = [];
  if (grid.rows > box.rows) strips.push({ row: box.row + box.rows, col: box.col, rows: grid.rows - box.rows, cols: grid.cols });
  if (grid.cols > box.cols) strips.push({ row: box.row, col: box.col + box.cols, rows: Math.min(grid.rows, box.rows), cols: grid.cols - box.cols });
  for (const strip of strips) {
    const content = await gateway.findContent(qualify(sheet, strip));
    if (!content) continue;
    const message =
      `${describeSpec(spec)} at ${at} has grown to ${plural(grid.rows, 'row')} and ${plural(grid.cols, 'column')} ` +
      `(from ${box.rows} and ${box.cols}), and ${content} holds your own content where it would go. ` +
      'Its figures were left as they are. Make room (insert rows under the block, or move what is there), then refresh it again.';
    throw new Refusal('No room for the refreshed block', message, 'block_no_room');
  }
}
