// What a push, shift or resume changed, in the terms cached answers depend on (reader/touched.ts): each
// transaction's date and its effective accounting date before and after. Rows whose update went through, or
// may have (the result is not known yet), count; a refused or failed one changed nothing.

import type { BulkUpdateParams } from '../../api';
import type { ReadValue } from '../ports/workbook';
import { addMonths, type DateSystem } from '../dates';
import type { TransactionChange } from '../reader/touched';
import { COL, cellToIso, readDateCell, type TableView } from './columns';

/** One update as sent, for the rows it was sent for (a PATCH is a group of one). */
export interface SentGroup {
  ids: readonly string[];
  update: BulkUpdateParams['updates'];
}

function isoOf(cell: ReadValue | undefined, system: DateSystem): string | undefined {
  const d = readDateCell(cell, system);
  return d.kind === 'date' ? cellToIso(d.serial, system) : undefined;
}

/** What a row's outcome (outcomes.ts, which calls this) says here: its update went through, or may have. */
interface Outcome {
  id: string;
  ok: boolean;
  unknown?: boolean;
}

export function changesOf(view: TableView, system: DateSystem, sent: readonly SentGroup[], outcomes: readonly Outcome[]): TransactionChange[] {
  const outcome = new Map(outcomes.map((o) => [o.id, o]));
  const changes: TransactionChange[] = [];
  for (const group of sent) {
    const u = group.update;
    for (const id of group.ids) {
      const o = outcome.get(id);
      if (!o || !(o.ok || o.unknown)) continue;
      const row = view.byId.get(id);
      if (!row) continue;
      const date = isoOf(row.get(COL.date), system);
      const before = isoOf(row.get(COL.pulledAccountingDate), system) ?? date;
      if (!date || !before) continue;
      let after = before;
      if (u.accounting_date !== undefined) after = u.accounting_date ?? date;
      else if (u.accounting_shift) after = addMonths(before, u.accounting_shift);
      changes.push({ id, date, accountingBefore: before, accountingAfter: after, ...(u.department_id !== undefined ? { department: true } : {}) });
    }
  }
  return changes;
}
