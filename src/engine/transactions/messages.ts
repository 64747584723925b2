// Every text the engine writes into the Push status column, in one place.

import type { JobError } from '../../api';
import { plural } from '../text/plural';
import type { RowProblem } from './columns';

export const MSG = {
  updated: 'Updated',
  pending: 'Pending push',
  conflict: 'Changed since you pulled it — refresh',
  permissionLost: 'Permission lost: Transactions Manage',
  deletedUpstream: 'Deleted upstream — this edit cannot be sent; delete the row',
  unmatched: "No longer matches this table's filters — kept for your unsent edit",
  interrupted: 'Sent; the result was not received — Review offers to resume it (the same job, never a second)',
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

/** A row no error of its failed job names: the job failed as a whole (an error about no one transaction). */
export function jobFailedAsWhole(reason: string): string {
  return `Not applied — the job failed as a whole (${reason}); nothing in that job changed`;
}

export function notAppliedBecauseOthers(reason: string, others: number): string {
  return `Not applied — ${plural(others, 'other row')} in the same job failed (${reason}); nothing in that job changed. Push again`;
}

/** Why a row cannot be pushed as it stands, and how to put it right. */
export function rowProblem(id: string, problem: RowProblem): string {
  switch (problem.kind) {
    case 'idChanged':
      return problem.shown === ''
        ? `Id cleared — put back ${id}: a row is pushed by the id it was pulled with`
        : `Id changed to '${problem.shown}' — put back ${id}: a row is pushed by the id it was pulled with`;
    case 'duplicate':
      return `This row appears twice in the table (${id}) — delete the copy; neither is sent until then`;
    case 'changedReadOnly':
      return 'Changed in a column that is never sent (Amount, Merchant, Date…) — Refresh puts the pulled values back; only Department and Accounting date are pushed';
  }
}

/** A row that lost its Pulled id: it can only be named by its position. */
export function lostIdentity(tableRow: number): string {
  return `Table row ${tableRow} lost its Pulled id (the far-right columns were cleared) — it cannot be pushed; delete it, or pull the transactions again`;
}

/**
 * The Push status of a job's rows from just before its POST until their result is written: if it stays
 * (a crash), it names the unfinished push, and the rows are its rows.
 */
export function sending(idempotencyKey: string): string {
  return `Sending (push ${idempotencyKey.slice(0, 8)}) — if this stays, Review offers to resume or discard it`;
}

export function pluralJobs(n: number): string {
  return plural(n, 'interrupted job');
}

export function partOfUnfinished(startedAt: string): string {
  return `Part of an unfinished push (started ${startedAt}) — resume or discard it in Review first`;
}

export function notSent(reason: string): string {
  return `Not sent: ${reason}`;
}
