// What a push, shift or resumed push tells the push log (engine/pushLog): each transaction and field it sent,
// the value before (the table's pulled value, which the push's upstream check has just brought to the API's),
// the one asked for, the one after as the API confirmed it (a PATCH's answer; a successful job's values, read
// back where the push reads back), how it was sent and how it ended. The run hands its steps to a PushRecord
// as they happen, so a run cut short by an error still logs what was sent, as interrupted.

import type { BulkUpdateParams, Transaction } from '../../api';
import { addMonths } from '../dates';
import type { LogAction, LoggedChange, LogOutcome, PushLogEntry } from '../pushLog/log';
import { COL, cellText, cellToIso, readDateCell, type RowView, type TableView } from './columns';
import { readView, type Deps, type OpenTable } from './context';
import type { EditUpdate } from './edits';
import type { JobReport, RunResult } from './jobs';
import * as M from './messages';
import type { RowOutcome } from './outcomes';

const DEPARTMENT = 'Department';
const ACCOUNTING_DATE = 'Accounting date';

/** One update as sent for some rows: a PATCH (one row) or a bulk job. */
export interface SentUpdate {
  ids: readonly string[];
  update: BulkUpdateParams['updates'];
  via: 'patch' | 'job';
}

interface Planned {
  id: string;
  field: typeof DEPARTMENT | typeof ACCOUNTING_DATE;
  before: string;
  requested: string;
  via: 'patch' | 'job';
  /** For a job: which one of the run (its index among the jobs sent, in order). */
  job?: number;
  /** For a shift: by how many months. */
  shift?: number;
}

/** The mark a job's rows carry while it is unfinished ("push 1a2b3c4d"), as its Push status names it. */
export function jobMark(idempotencyKey: string): string {
  return `push ${idempotencyKey.slice(0, 8)}`;
}

export class PushRecord {
  private t: OpenTable | undefined;
  private planned: Planned[] = [];
  private readonly outcomes = new Map<string, RowOutcome>();
  private readonly returned = new Map<string, Transaction>();
  private reports: (JobReport | undefined)[] = [];
  private stopped: string | undefined;
  /** Entries of the log this one resumes, when it is a resumed push. */
  resumes: number[] = [];

  constructor(
    readonly action: LogAction,
    /** When the run started (ms since epoch). */
    readonly at: number,
  ) {}

  /** The table the run works on, once it is open: a run that fails after this is logged, sent or not. */
  opened(t: OpenTable): void {
    this.t = t;
  }

  /** Before anything is sent: what will be, with its values as the table holds them now. */
  sending(t: OpenTable, view: TableView, sent: readonly SentUpdate[]): void {
    this.t = t;
    let job = 0;
    for (const s of sent) {
      const u = s.update as EditUpdate & { accounting_shift?: number };
      const jobIndex = s.via === 'job' ? job++ : undefined;
      for (const id of s.ids) {
        const row = view.byId.get(id);
        const base = { id, via: s.via, ...(jobIndex !== undefined ? { job: jobIndex } : {}) };
        if (u.department_id !== undefined) {
          this.planned.push({ ...base, field: DEPARTMENT, before: department(t, row ? cellText(row.get(COL.pulledDepartment)) : ''), requested: departmentOfId(t, u.department_id) });
        }
        if (u.accounting_date !== undefined) {
          this.planned.push({ ...base, field: ACCOUNTING_DATE, before: accountingDate(t, row), requested: u.accounting_date ?? `${accountingDateOf(t, row, 'date') ?? ''} (the transaction date)` });
        }
        if (u.accounting_shift !== undefined) {
          this.planned.push({ ...base, field: ACCOUNTING_DATE, before: accountingDate(t, row), requested: `${u.accounting_shift > 0 ? '+' : ''}${u.accounting_shift} month${Math.abs(u.accounting_shift) === 1 ? '' : 's'}`, shift: u.accounting_shift });
        }
      }
    }
  }

  /** The PATCHes' outcomes and the transactions they answered with. */
  patched(outcomes: readonly RowOutcome[], returned: readonly Transaction[]): void {
    for (const o of outcomes) this.outcomes.set(o.id, o);
    for (const t of returned) this.returned.set(t.id, t);
  }

  /** The jobs' outcomes; their reports are the jobs sent, in order (a job never reported was not sent). */
  jobs(run: Pick<RunResult, 'reports' | 'outcomes'>): void {
    for (const o of run.outcomes) this.outcomes.set(o.id, o);
    this.reports = run.reports;
  }

  /** The run stopped on an error: what was not settled is logged as interrupted, with it. */
  failed(error: unknown): void {
    this.stopped = error instanceof Error ? error.message : String(error);
  }

  /** Something to log: changes sent (or about to be), or a run on a table that stopped on an error. */
  get worthLogging(): boolean {
    return this.t !== undefined && (this.planned.length > 0 || this.stopped !== undefined);
  }

  /** The entry, its after values read from the table as the run left it (one read of the table). */
  async entry(deps: Deps, header: Pick<PushLogEntry, 'timeZone' | 'connection' | 'keyFingerprint'>): Promise<PushLogEntry | null> {
    const t = this.t;
    if (!t || !this.worthLogging) return null;
    const after = await readView(deps, t).catch(() => null);
    const unfinished = new Set<string>();
    const finished = new Set<string>();
    const changes: LoggedChange[] = this.planned.map((p) => {
      const report = p.job !== undefined ? this.reports[p.job] : undefined;
      const mark = report ? jobMark(report.idempotencyKey) : undefined;
      const { outcome, reason } = this.outcomeOf(this.outcomes.get(p.id), report);
      if (mark && outcome === 'Interrupted') unfinished.add(mark);
      else if (mark) finished.add(mark);
      return {
        transaction: p.id,
        field: p.field,
        before: p.before,
        requested: p.requested,
        after: outcome === 'Applied' ? this.afterOf(p, after) : outcome === 'Interrupted' ? '' : p.before,
        sentAs: p.via === 'patch' ? 'PATCH' : report?.jobId ? `Job ${report.jobId} (${mark})` : report ? `Job, id not received (${mark})` : 'Job not sent',
        outcome,
        reason,
      };
    });
    return {
      ...header,
      at: this.at,
      action: this.action,
      company: { id: t.binding.company, ...(t.state.reference.companyName ? { name: t.state.reference.companyName } : {}) },
      table: t.table,
      ...(this.resumes.length ? { resumes: this.resumes } : {}),
      ...(unfinished.size ? { unfinished: [...unfinished] } : {}),
      ...(finished.size ? { finished: [...finished] } : {}),
      ...(this.stopped ? { stopped: this.stopped } : {}),
      changes,
    };
  }

  private outcomeOf(o: RowOutcome | undefined, report: JobReport | undefined): { outcome: LogOutcome; reason: string } {
    if (!o) return { outcome: 'Interrupted', reason: `The add-in stopped before the API's answer was known${this.stopped ? ` (${this.stopped})` : ''}: Refresh shows whether it was applied` };
    if (o.ok) return { outcome: 'Applied', reason: '' };
    if (o.unknown) return { outcome: 'Interrupted', reason: report?.reason ? `${report.reason} — ${o.status}` : o.status };
    if (report?.result === 'failed') return { outcome: 'Failed job', reason: o.status };
    const notSent = M.notSent('');
    if (o.status.startsWith(notSent)) return { outcome: 'Not sent', reason: o.status.slice(notSent.length) };
    return { outcome: 'Refused', reason: o.status };
  }

  /** The value after, as the API confirmed it: a PATCH's answer, else the table's pulled value as the run left it. */
  private afterOf(p: Planned, view: TableView | null): string {
    const t = this.t!;
    const answer = this.returned.get(p.id);
    if (answer) return p.field === DEPARTMENT ? departmentOfId(t, answer.department_id) : (answer.accounting_date ?? answer.date);
    const row = view?.byId.get(p.id);
    const now = p.field === DEPARTMENT ? department(t, row ? cellText(row.get(COL.pulledDepartment)) : '') : accountingDate(t, row);
    // A shift's new date is the API's to work out (month ends clamp); not read back, it is the one asked for.
    if (p.shift !== undefined && now === p.before && /^\d{4}-\d{2}-\d{2}$/.test(p.before)) return `${addMonths(p.before, p.shift)} (not read back yet: Refresh shows the API's date)`;
    return now;
  }
}

/** "Company > Sales > East (dept_12)"; "(none)". */
function department(t: OpenTable, path: string): string {
  if (!path) return '(none)';
  const ref = t.dir.lookup(path);
  return ref ? `${ref.path} (${ref.id})` : path;
}

function departmentOfId(t: OpenTable, id: string | null | undefined): string {
  if (!id) return '(none)';
  const path = t.dir.pathOf(id);
  return path ? `${path} (${id})` : id;
}

function accountingDateOf(t: OpenTable, row: RowView | undefined, column: 'pulled' | 'date'): string | undefined {
  const cell = readDateCell(row?.get(column === 'pulled' ? COL.pulledAccountingDate : COL.date), t.system);
  return cell.kind === 'date' ? cellToIso(cell.serial, t.system) : undefined;
}

function accountingDate(t: OpenTable, row: RowView | undefined): string {
  return accountingDateOf(t, row, 'pulled') ?? accountingDateOf(t, row, 'date') ?? '';
}
