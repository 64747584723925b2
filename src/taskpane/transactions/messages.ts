// What the Transactions screen says, in one place: the cost note of the filters, the line after each action,
// the review's lines. The engine's own words (Push status, progress, refresh notes) stay in the engine.

import type { CellDrillResult, DrillDownResult, GroupSummary, Logged, LogWritten, PullResult, PushResult, RefreshResult, ResumeResult, UnfinishedPush, ReviewPlan, ShiftResult, TransactionFilters } from '../../engine/transactions';
import { allowsIncrementalRefresh, centsToDisplay, describeFilters, mutableFilterNames, plural, pluralGrouped } from '../../runtime/screenKit';

export const NOT_CONNECTED = 'Connect to a company to pull its transactions.';

/** A drill-down total: cents become units only through the engine's money module. */
function totalText(cents: number): string {
  return centsToDisplay(cents, 'units').toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

function callsText(calls: number | null): string {
  return calls === null ? '' : ` (${pluralGrouped(calls, 'call')})`;
}

/**
 * Under the filters, in whole sentences: what they select (the category by its path when the pane knows
 * it, never by its id alone), what a pull costs and how the table will refresh.
 */
export function filtersNote(filters: TransactionFilters, categoryPath?: string): string {
  const { category_id: categoryId, ...others } = filters;
  const category = categoryId ? `in ${categoryPath ?? `category ${categoryId}`}` : '';
  const what = Object.values(others).some((v) => v !== undefined)
    ? `Pulls the transactions matching: ${[describeFilters(others), category].filter(Boolean).join(', ')}.`
    : category
      ? `Pulls the transactions ${category}.`
      : 'Pulls every transaction.';
  const refresh = allowsIncrementalRefresh(filters)
    ? 'Refresh will be incremental.'
    : `Refresh will re-pull everything: ${mutableFilterNames(filters).join(', ')} can change on a transaction.`;
  return `${what} Costs 2 calls plus 1 per 500 rows. ${refresh}`;
}

export function tableNote(incremental: boolean): string {
  return `Edit Department (pick from the list) or Accounting date in the table, then review and push. Pulled values sit at the far right. ${
    incremental ? 'Refresh is incremental.' : 'Refresh re-pulls (the filters can change on a transaction).'
  }`;
}

/** One unfinished push as the user decides on it: what, how many rows, when, by whom, and what resuming does. */
export function unfinishedPush(u: UnfinishedPush, timeText: (iso: string) => string): string {
  const when = u.startedAt ? ` started ${timeText(u.startedAt)}` : '';
  return `${u.description} on ${pluralGrouped(u.rows, 'row')}${when} by ${u.startedBy}. ${u.note}`;
}

export function discarded(n: number): string {
  return `Discarded ${pluralGrouped(n, 'unfinished push', 'unfinished pushes')}; nothing was sent. Refresh shows the current values.`;
}

export function selectRowsFirst(table: string): string {
  return `Select rows of the transactions table ${table} first (any cells of them; several rows at once are fine).`;
}

export function pulled(res: PullResult): string {
  const mode = res.incremental
    ? 'Refresh will fetch only what changed since.'
    : `Refresh will re-pull the whole selection: ${res.mutableFilters.join(', ')} can change on a transaction, and an incremental sync would miss rows that stop matching.`;
  return `Pulled ${pluralGrouped(res.rows, 'transaction')} into ${res.sheet}${callsText(res.calls)}. ${mode}`;
}

export function refreshed(res: RefreshResult): string {
  const c = res.counts;
  const flagged = c.flagged ? `, ${c.flagged} to review` : '';
  return `${res.mode === 'full' ? 'Re-pulled' : 'Refreshed'}: ${c.updated} updated, ${c.added} added, ${c.removed} removed${flagged}${callsText(res.calls)}. ${res.note}`;
}

export function reviewed(plan: ReviewPlan): string {
  return plan.edited === 0 ? 'No edits in this table.' : `${pluralGrouped(plan.edited, 'edited row')} found.`;
}

/** Where the run went in the push log, or why it is not there (the changes stand either way). */
export function loggedText(log: LogWritten | undefined): string {
  if (!log) return '';
  if ('error' in log) return ` The push log could not be written (${log.error}); the changes were made.`;
  return ` Logged as entry ${log.entry} of the push log (sheet ${log.sheet}).`;
}

/** How a result is shown: a refusal is never a green bar. */
export type ResultIntent = 'success' | 'warning' | 'error';
export interface Said {
  text: string;
  intent: ResultIntent;
}

/** What the API refused in a push: rows of PATCHes answered with an error and of failed jobs, with the API's reasons. */
function refusedByApi(res: PushResult): { rows: number; reasons: string[] } {
  const reasons = new Set<string>();
  let rows = 0;
  for (const p of res.patches) {
    // A PATCH whose answer never came is not known to be refused: its status says to push again.
    if (p.ok || p.unknown) continue;
    rows += 1;
    reasons.add(p.status);
  }
  for (const j of res.jobs) {
    if (j.result !== 'failed' && j.result !== 'not_created') continue;
    rows += j.rows;
    if (j.reason) reasons.add(j.reason);
  }
  return { rows, reasons: [...reasons] };
}

export function pushed(res: PushResult & Partial<Logged>): Said {
  const jobs = res.jobs.length ? `, ${pluralGrouped(res.jobs.length, 'job')}` : '';
  const patches = res.patches.length ? `, ${pluralGrouped(res.patches.length, 'single-row update')}` : '';
  const warnings = res.warnings.length ? ` ${res.warnings.join(' ')}` : '';
  const notSent = res.invalid.length + res.held.length;
  // A log that could not be written is among the warnings already.
  const logged = res.log && !('error' in res.log) ? loggedText(res.log) : '';
  const summary = `${pluralGrouped(res.updated, 'row')} updated, ${res.pending} pending, ${notSent} not sent${jobs}${patches}${callsText(res.calls)}. Each row's Push status says what happened.${warnings}${logged}`;
  const refused = refusedByApi(res);
  // Rows left pending whose answer never came are not refused, but not a plain success either.
  if (refused.rows === 0) return { text: `Pushed: ${summary}`, intent: res.pending > 0 ? 'warning' : 'success' };
  // The refusal first, with the API's own reason: the same words the push log and Last pushes use.
  const why = refused.reasons.length ? `: ${refused.reasons.slice(0, 2).join('; ')}${refused.reasons.length > 2 ? `; and ${refused.reasons.length - 2} other reasons` : ''}` : '';
  return {
    text: `The API refused ${pluralGrouped(refused.rows, 'change')}${why}. ${summary}`,
    intent: res.updated > 0 ? 'warning' : 'error',
  };
}

export function resumed(res: ResumeResult & { calls: number | null } & Partial<Logged>): string {
  return `Resumed ${pluralGrouped(res.entries, 'job')}: ${res.updated} rows updated, ${res.failed} failed, ${res.unknown} still unknown${callsText(res.calls)}.${loggedText(res.log)}`;
}

export function shifted(res: ShiftResult & Partial<Logged>, months: number): string {
  return `Shifted ${pluralGrouped(res.updated, 'row')} by ${plural(months, 'month')}; ${res.invalid.length} not sent${callsText(res.calls)}. See Push status.${loggedText(res.log)}`;
}

export function drilledFromCell(res: CellDrillResult): string {
  const t = res.target;
  return `${pluralGrouped(res.rows, 'journal line')} of ${res.categoryName}, ${t.start} to ${t.end} (from ${t.source}), on ${res.sheet}, total ${totalText(res.totalCents)}${callsText(res.calls)}. ${res.note}`;
}

export function drilledDown(res: DrillDownResult): string {
  return `${pluralGrouped(res.rows, 'journal line')} of ${res.categoryName} on ${res.sheet}, total ${totalText(res.totalCents)}${callsText(res.calls)}. ${res.note}`;
}

// The review ("Changes to push") ------------------------------------------------------------------

export function groupsToSend(plan: ReviewPlan): string {
  const rows = plan.groups.reduce((n, g) => n + g.rows, 0);
  return `${pluralGrouped(plan.groups.length, 'group')} to send (${pluralGrouped(rows, 'row')})`;
}

export function groupLine(g: GroupSummary): string {
  const how = g.method === 'patch' ? 'one PATCH (1 call)' : `${pluralGrouped(g.jobs, 'bulk job')} (${g.calls}+ calls: submission and polls)`;
  return `${g.description}: ${pluralGrouped(g.rows, 'row')} — ${how}`;
}

export function rowsNotSent(n: number): string {
  return `${pluralGrouped(n, 'row')} not sent: see their Push status.`;
}

export function rowsHeld(n: number): string {
  return `${pluralGrouped(n, 'row')} held: changed or deleted upstream, or part of an unfinished push (see Push status).`;
}

/** Rows that lost their Pulled id cannot carry a status: they are named here, by position. */
export function rowsLost(lost: readonly { row: number; message: string }[]): string {
  return lost.length === 1 ? lost[0].message : `${pluralGrouped(lost.length, 'row')} (table rows ${lost.map((l) => l.row).join(', ')}) lost their Pulled id and cannot be pushed: delete them, or pull the transactions again.`;
}

