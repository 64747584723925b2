// Bringing server rows into the table without ever overwriting a local edit.
//
// Per row and per editable field (Department, Accounting date):
//  - not edited locally (cell = pulled): the cell and the pulled value both take the server's value;
//  - edited locally: the cell is kept, the pulled value takes the server's value. If the server's value
//    now equals the edit, the edit is simply done. If the server's value moved away from what was pulled
//    (someone else changed the same field), the row is flagged "Changed upstream since you edited —
//    review": the edit is kept, and the push holds such a row back once (when the flag is raised by the
//    push's own upstream check) so a person sees it before it overwrites the other change.
// Every other column always takes the server's value (a cell typed over where nothing is ever sent is
// put back, and its Row check with it). A tombstone removes an unedited row; an edited
// one is kept and flagged "Deleted upstream" (its edit can never be applied, and the push skips it). On a
// full re-pull, a row that no longer comes back (it stopped matching a mutable filter) is removed, or kept
// and flagged when it holds an unsent edit.

import type { ReadValue, RowUpdate, WriteValue } from '../ports/workbook';
import type { Transaction, TransactionTombstone } from '../../api';
import type { DateSystem } from '../dates';
import {
  COL,
  COLUMN_NAMES,
  cellToIso,
  compareForTable,
  normPath,
  readDateCell,
  serverValues,
  transactionRow,
  type ColumnName,
  type RowView,
  type TableView,
} from './columns';
import type { DepartmentDirectory } from './departments';
import { isAccountingDateEdited, isDepartmentEdited } from './edits';
import * as M from './messages';
import type { RowFlags } from './state';

/**
 * incremental: a sync run of the table's own (immutable) filters: add new rows, update, apply tombstones.
 * restricted: an unfiltered run used by a table with mutable filters (before and after a push): only rows
 *   already in the table are updated or tombstoned; nothing is added.
 * full: a complete re-pull: additionally, table rows that did not come back are gone from the selection.
 */
export type ReconcileMode = 'incremental' | 'restricted' | 'full';

export interface ReconcileInput {
  view: TableView;
  upserts: Transaction[];
  tombstones: TransactionTombstone[];
  mode: ReconcileMode;
  dir: DepartmentDirectory;
  system: DateSystem;
  flags: RowFlags;
}

export interface ReconcileOutput {
  updates: RowUpdate[];
  appends: WriteValue[][];
  deletes: string[];
  flags: RowFlags;
  flagsChanged: boolean;
  /** Rows flagged "changed upstream" by this run. */
  newlyUpstream: Set<string>;
  counts: { updated: number; added: number; removed: number; flagged: number; unchanged: number };
}

function same(write: WriteValue | undefined, read: ReadValue): boolean {
  if (write === null || write === undefined) return read === '';
  if (typeof write === 'number') return typeof read === 'number' && read === write;
  return String(read) === write;
}

export function reconcile(input: ReconcileInput): ReconcileOutput {
  const { view, mode, dir, system } = input;
  const flags: RowFlags = { ...input.flags };
  let flagsChanged = false;
  const setFlag = (id: string, kind: RowFlags[string]['kind'], message: string) => {
    const prev = flags[id];
    if (!prev || prev.kind !== kind || prev.message !== message) flagsChanged = true;
    flags[id] = { kind, message };
  };
  const clearFlag = (id: string) => {
    if (flags[id]) {
      delete flags[id];
      flagsChanged = true;
    }
  };

  // The latest word per id: a run is ordered oldest-modified first and a restarted run delivers rows again in
  // that order, so a later delivery wins; a tombstone wins over any delivery (a deletion is final).
  const latest = new Map<string, { kind: 'upsert'; t: Transaction } | { kind: 'tombstone' }>();
  for (const t of input.upserts) latest.set(t.id, { kind: 'upsert', t });
  for (const t of input.tombstones) latest.set(t.id, { kind: 'tombstone' });

  const out: ReconcileOutput = {
    updates: [],
    appends: [],
    deletes: [],
    flags,
    flagsChanged: false,
    newlyUpstream: new Set(),
    counts: { updated: 0, added: 0, removed: 0, flagged: 0, unchanged: 0 },
  };
  const added: Transaction[] = [];

  const hasEdit = (row: RowView) => isDepartmentEdited(row) || isAccountingDateEdited(row, system);

  const keepOrDelete = (row: RowView, kind: 'deleted' | 'unmatched') => {
    if (hasEdit(row)) {
      const message = kind === 'deleted' ? M.MSG.deletedUpstream : M.MSG.unmatched;
      setFlag(row.id, kind, message);
      if (String(row.get(COL.pushStatus)) !== message) out.updates.push({ key: row.id, values: { [COL.pushStatus]: message } });
      out.counts.flagged++;
    } else {
      clearFlag(row.id);
      out.deletes.push(row.id);
      out.counts.removed++;
    }
  };

  for (const [id, entry] of latest) {
    const row = view.byId.get(id);
    if (entry.kind === 'tombstone') {
      if (row) keepOrDelete(row, 'deleted');
      continue;
    }
    if (!row) {
      if (mode !== 'restricted') added.push(entry.t);
      continue;
    }
    mergeRow(row, entry.t);
  }

  if (mode === 'full') {
    for (const row of view.rows) if (!latest.has(row.id)) keepOrDelete(row, 'unmatched');
  }

  added.sort(compareForTable);
  out.appends = added.map((t) => transactionRow(t, dir, system));
  out.counts.added = added.length;
  out.flagsChanged = flagsChanged;
  return out;

  function mergeRow(row: RowView, t: Transaction): void {
    const sv = serverValues(t, dir, system);
    const next: Partial<Record<ColumnName, WriteValue>> = {};
    // Every column takes the server's value, the Id cell too (a typed-over Id is put back), but the
    // editable ones under a local edit (below) and the Push status.
    for (const name of COLUMN_NAMES) if (name !== COL.pushStatus) next[name] = sv[name];

    const details: string[] = [];
    let stillEdited = false;

    if (isDepartmentEdited(row)) {
      delete next[COL.department];
      const server = normPath(sv[COL.pulledDepartment]);
      if (server !== normPath(row.get(COL.department))) {
        stillEdited = true;
        if (server !== normPath(row.get(COL.pulledDepartment))) details.push(`Department '${sv[COL.pulledDepartment] ?? ''}'`.replace("''", '(none)'));
      }
    }
    if (isAccountingDateEdited(row, system)) {
      delete next[COL.accountingDate];
      const serverSerial = sv[COL.pulledAccountingDate] as number;
      const cell = readDateCell(row.get(COL.accountingDate), system);
      const dateCell = readDateCell(row.get(COL.date), system);
      const cellEffective = cell.kind === 'date' ? cell.serial : cell.kind === 'blank' && dateCell.kind === 'date' ? dateCell.serial : undefined;
      if (cellEffective !== serverSerial) {
        stillEdited = true;
        const pulled = readDateCell(row.get(COL.pulledAccountingDate), system);
        if (pulled.kind !== 'date' || pulled.serial !== serverSerial) details.push(`accounting date ${cellToIso(serverSerial, system) ?? serverSerial}`);
      }
    }

    const flag = flags[row.id];
    if (flag?.kind === 'deleted' || flag?.kind === 'unmatched') clearFlag(row.id);
    if (details.length > 0) {
      const message = M.changedUpstream(details);
      setFlag(row.id, 'upstream', message);
      out.newlyUpstream.add(row.id);
      next[COL.pushStatus] = message;
      out.counts.flagged++;
    } else if (!stillEdited) {
      // Nothing of the user's is pending on this row any more: its flag (if any) has no object.
      if (flag) {
        clearFlag(row.id);
        if (!M.isUpdatedStatus(String(row.get(COL.pushStatus)))) next[COL.pushStatus] = null;
      }
    } else if (flag?.kind === 'deleted' || flag?.kind === 'unmatched') {
      next[COL.pushStatus] = M.MSG.pending;
    }

    const values: Record<string, WriteValue> = {};
    for (const [name, v] of Object.entries(next) as [ColumnName, WriteValue][]) {
      if (!same(v, row.get(name))) values[name] = v;
    }
    if (Object.keys(values).length > 0) {
      out.updates.push({ key: row.id, values });
      out.counts.updated++;
    } else out.counts.unchanged++;
  }
}
