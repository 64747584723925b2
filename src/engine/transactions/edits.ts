// Edits: found by comparing each row with its values as pulled, checked locally (no call), grouped by
// identical update, and priced before anything is sent.

import { addMonths, type DateSystem } from '../dates';
import { plural } from '../text/plural';
import { COL, cellText, cellToIso, normPath, readDateCell, type DateCell, type RowView } from './columns';
import type { DepartmentDirectory } from './departments';
import * as M from './messages';

/** Most transaction_ids in one bulk job (spec: bulk update size 1-5,000). */
export const MAX_JOB_IDS = 5000;
/** Rows per incremental page (the API's maximum). */
export const PAGE_SIZE = 500;

export interface EditContext {
  dir: DepartmentDirectory;
  system: DateSystem;
  /** The company's today (America/Los_Angeles). */
  today: string;
  incorporationDate: string | null;
}

export interface RowEdit {
  row: RowView;
  /** The Department cell's text when it differs from the pulled one ('' = cleared). */
  department?: string;
  /** The Accounting date cell when it differs from the pulled one (blank = back to the transaction date). */
  accountingDate?: DateCell;
}

/** The effective accounting-date serial a cell stands for: blank means the transaction date. */
function effectiveSerial(cell: DateCell, row: RowView, system: DateSystem): number | undefined {
  if (cell.kind === 'date') return cell.serial;
  if (cell.kind === 'blank') {
    const d = readDateCell(row.get(COL.date), system);
    return d.kind === 'date' ? d.serial : undefined;
  }
  return undefined;
}

export function isDepartmentEdited(row: RowView): boolean {
  return normPath(row.get(COL.department)) !== normPath(row.get(COL.pulledDepartment));
}

export function isAccountingDateEdited(row: RowView, system: DateSystem): boolean {
  const pulled = readDateCell(row.get(COL.pulledAccountingDate), system);
  const cell = readDateCell(row.get(COL.accountingDate), system);
  if (cell.kind === 'invalid') return true;
  const pulledSerial = pulled.kind === 'date' ? pulled.serial : undefined;
  return effectiveSerial(cell, row, system) !== pulledSerial;
}

/** The row's local edit, or undefined when its editable cells equal the pulled ones. */
export function detectEdit(row: RowView, system: DateSystem): RowEdit | undefined {
  const edit: RowEdit = { row };
  if (isDepartmentEdited(row)) edit.department = cellText(row.get(COL.department));
  if (isAccountingDateEdited(row, system)) edit.accountingDate = readDateCell(row.get(COL.accountingDate), system);
  return edit.department !== undefined || edit.accountingDate !== undefined ? edit : undefined;
}

/** The fields a row update sends; key order is fixed so identical updates compare equal as JSON. */
export interface EditUpdate {
  accounting_date?: string | null;
  department_id?: string | null;
}

export interface CheckedEdit {
  id: string;
  update: EditUpdate;
  /** What the pulled columns become once the server applied it. */
  pulledDepartment?: string;
  pulledAccountingSerial?: number;
}

export type CheckResult = { ok: true; edit: CheckedEdit } | { ok: false; message: string };

export interface AccountingWindow {
  min: string;
  /** Exclusive. */
  maxExclusive: string;
}

/** From incorporation (two years before today when none) to strictly before three years after today. */
export function accountingWindow(today: string, incorporationDate: string | null): AccountingWindow {
  return { min: incorporationDate ?? addMonths(today, -24), maxExclusive: addMonths(today, 36) };
}

export function inWindow(iso: string, w: AccountingWindow): boolean {
  return iso >= w.min && iso < w.maxExclusive;
}

/** The local checks the server would also make: known assignable department, date window, editable type. */
export function checkEdit(edit: RowEdit, ctx: EditContext): CheckResult {
  const row = edit.row;
  const type = cellText(row.get(COL.type)).toLowerCase();
  if (type === 'transfer' || type === 'split') return { ok: false, message: M.notEditable(type) };
  const out: CheckedEdit = { id: row.id, update: {} };

  if (edit.accountingDate !== undefined) {
    const cell = edit.accountingDate;
    if (cell.kind === 'invalid') return { ok: false, message: M.badAccountingDate(cell.text) };
    if (cell.kind === 'blank') {
      // Null restores the transaction date and is never out of bounds (spec, PATCH).
      out.update.accounting_date = null;
      const d = readDateCell(row.get(COL.date), ctx.system);
      if (d.kind === 'date') out.pulledAccountingSerial = d.serial;
    } else {
      const iso = cellToIso(cell.serial, ctx.system)!;
      const w = accountingWindow(ctx.today, ctx.incorporationDate);
      if (!inWindow(iso, w)) return { ok: false, message: M.outsideWindow(iso, w.min, w.maxExclusive) };
      out.update.accounting_date = iso;
      out.pulledAccountingSerial = cell.serial;
    }
  }

  if (edit.department !== undefined) {
    if (edit.department === '') {
      out.update.department_id = null;
      out.pulledDepartment = '';
    } else {
      const ref = ctx.dir.lookup(edit.department);
      if (!ref) return { ok: false, message: M.unknownDepartment(edit.department) };
      if (!ref.assignable) return { ok: false, message: M.notAssignable(ref.path) };
      out.update.department_id = ref.id;
      out.pulledDepartment = ref.path;
    }
  }
  return { ok: true, edit: out };
}

// ---------------------------------------------------------------------------------------------------
// Grouping and cost

export interface UpdateGroup {
  /** Canonical JSON of the update: rows with an identical update share a group. */
  key: string;
  update: EditUpdate | { accounting_shift: number };
  ids: string[];
  /** One row: PATCH (1 call) rather than submit + at least one poll. A shift has no PATCH form. */
  method: 'patch' | 'bulk';
  /** The group's ids cut into bulk jobs of at most 5,000. */
  jobs: string[][];
}

export function canonicalUpdate(update: EditUpdate | { accounting_shift: number }): string {
  const u = update as Record<string, unknown>;
  return JSON.stringify(Object.keys(u).sort().reduce<Record<string, unknown>>((o, k) => ((o[k] = u[k]), o), {}));
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function groupEdits(edits: { id: string; update: EditUpdate | { accounting_shift: number } }[], maxJobIds = MAX_JOB_IDS): UpdateGroup[] {
  const groups = new Map<string, UpdateGroup>();
  for (const e of edits) {
    const key = canonicalUpdate(e.update);
    let g = groups.get(key);
    if (!g) {
      g = { key, update: e.update, ids: [], method: 'bulk', jobs: [] };
      groups.set(key, g);
    }
    g.ids.push(e.id);
  }
  for (const g of groups.values()) {
    const shift = 'accounting_shift' in g.update;
    g.method = g.ids.length === 1 && !shift ? 'patch' : 'bulk';
    g.jobs = g.method === 'bulk' ? chunk(g.ids, maxJobIds) : [];
  }
  // Biggest first: the order a reviewer reads them in.
  return [...groups.values()].sort((a, b) => b.ids.length - a.ids.length || a.key.localeCompare(b.key));
}

export interface CostEstimate {
  /** The upstream check before sending: one incremental page when little changed. */
  check: number;
  patches: number;
  submissions: number;
  /** At least one poll per job; more when a job takes longer than the first poll's delay. */
  polls: number;
  /** Extra error pages, only when a job fails with more than 500 errors (0 expected). */
  errorPages: number;
  /**
   * Reading the changed rows back after the push: one incremental page when they fit in one; none beyond
   * (their new values are known, and the next sync reads them with what others changed: reread.ts).
   */
  reread: number;
  total: number;
  text: string;
}

export function estimateCost(groups: UpdateGroup[], options: { checkUpstream: boolean }): CostEstimate {
  const patches = groups.filter((g) => g.method === 'patch').length;
  const jobs = groups.reduce((n, g) => n + g.jobs.length, 0);
  const bulkRows = groups.reduce((n, g) => n + (g.method === 'bulk' ? g.ids.length : 0), 0);
  const anything = patches + jobs > 0;
  const check = options.checkUpstream && anything ? 1 : 0;
  const reread = jobs > 0 && bulkRows < PAGE_SIZE ? 1 : 0;
  const total = check + patches + 2 * jobs + reread;
  const parts: string[] = [];
  if (check) parts.push('1 upstream check');
  if (patches) parts.push(plural(patches, 'PATCH', 'PATCHes'));
  if (jobs) parts.push(`${plural(jobs, 'job submission')} + at least ${plural(jobs, 'poll')}`);
  if (reread) parts.push(`about ${reread} to re-read the changed rows`);
  const text = anything ? `About ${total} calls: ${parts.join(', ')} (failed jobs with over 500 errors: 1 more per 500).` : 'Nothing to send: no calls.';
  return { check, patches, submissions: jobs, polls: jobs, errorPages: 0, reread, total, text };
}

export function describeUpdate(update: EditUpdate | { accounting_shift: number }, dir: DepartmentDirectory): string {
  const parts: string[] = [];
  const u = update as EditUpdate & { accounting_shift?: number };
  if (u.accounting_shift !== undefined) parts.push(`Accounting date shifted ${u.accounting_shift > 0 ? '+' : ''}${u.accounting_shift} month(s)`);
  if (u.department_id !== undefined) parts.push(u.department_id === null ? 'Department cleared' : `Department → ${dir.pathOf(u.department_id) ?? u.department_id}`);
  if (u.accounting_date !== undefined) parts.push(u.accounting_date === null ? 'Accounting date → the transaction date' : `Accounting date → ${u.accounting_date}`);
  return parts.join(', ');
}
