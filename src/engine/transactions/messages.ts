// Every text the engine writes into the Push status column, in one place.

import type { JobError } from '../../api';
import { plural } from '../text/plural';

export const MSG = {
  updated: 'Updated',
  pending: 'Pending push',
  conflict: 'Changed since you pulled it — refresh',
  permissionLost: 'Permission lost: Transactions Manage',
  deletedUpstream: 'Deleted upstream — this edit cannot be sent; delete the row',
  unmatched: "No longer matches this table's filters — kept for your unsent edit",
  interrupted: 'Sent; the result was not received — it is resumed on the next push (no second job)',
  notConfirmedPatch: 'Not confirmed (connection lost) — push again; sending the same value twice is safe',
  missing: 'Not found upstream (deleted?) — refresh',
} as const;

export function updatedShift(months: number): string {
  return `Updated (accounting date shifted ${months > 0 ? '+' : ''}${plural(months, 'month')})`;
}

export function isUpdatedStatus(status: string): boolean {
  return status === MSG.updated || status.startsWith(`${MSG.updated} (`);
}

export function unknownDepartment(text: string): string {
  return `Unknown department '${text}' — pick from the list`;
}

export function notAssignable(path: string): string {
  return `Department '${path}' cannot be assigned (only leaf departments can) — pick from the list`;
}

export function badAccountingDate(text: string): string {
  return `Accounting date '${text}' is not a date — enter a date like 2026-03-31`;
}

export function outsideWindow(date: string, min: string, maxExclusive: string): string {
  return `Accounting date ${date} is outside the allowed range (${min} to before ${maxExclusive})`;
}

export function notEditable(type: string): string {
  const what = type === 'split' ? 'Split transactions' : type === 'transfer' ? 'Transfers' : `${type} transactions`;
  return `${what} cannot be edited — undo the change`;
}

export function changedUpstream(details: string[]): string {
  return `Changed upstream since you edited — review (server now: ${details.join('; ')}). Your edit is kept and is sent on the next push`;
}

/** The reason for one job error, as the user reads it. Unknown codes show the server's message. */
export function jobErrorReason(e: Pick<JobError, 'code' | 'message'>): string {
  switch (e.code) {
    case 'transaction_conflict':
      return MSG.conflict;
    case 'permission_denied':
      return MSG.permissionLost;
    default:
      return e.message || String(e.code);
  }
}

export function notAppliedBecauseOthers(reason: string, others: number): string {
  return `Not applied — ${plural(others, 'other row')} in the same job failed (${reason}); nothing in that job changed. Push again`;
}

export function notSent(reason: string): string {
  return `Not sent: ${reason}`;
}
