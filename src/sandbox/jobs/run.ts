import type { Db } from '../db/open';
import type { Clock } from '../clock';
import { has, parsePermissions } from '../permissions';
import { prepared } from '../ledger/sql';
import { TXN_SELECT, type TxnRow } from '../transactions/wire';
import { accountingWindow, applyEdit, currentState, firstViolation } from '../transactions/edits';
import { MAX_TARGETS, filterWhere, parseBulkBody, type BulkRequest } from './request';
import { failJob, type JobErrorEntry, type JobRow } from './store';

// The two steps of a bulk-update job. start: freeze the targets (queued -> processing), or end the job
// at once when selection fails or selects nothing. commit: after the processing delay, check that the
// submitter may still do it and that no target moved, run the bookkeeping rules on every target, and
// apply all edits in one SQLite transaction, or none.

/** What the job froze of one target: the fields whose change makes the job's edit a conflict. */
interface Target {
  id: string;
  snapshot: string;
}

function snapshotOf(row: TxnRow): string {
  const s = currentState(row);
  return JSON.stringify([
    s.accounting_date_override,
    s.department_id,
    s.department_source,
    s.spread,
    s.category_id,
    row.transaction_type,
    row.hidden,
    row.deleted,
    row.account_id,
    row.card_id,
  ]);
}

const txnError = (code: string, transactionId: string | null, message: string): JobErrorEntry => ({
  type: 'invalid_request_error',
  code,
  message,
  transaction_id: transactionId,
});

/** The submitter's live standing: active user and membership, open company, and both permissions. */
function submitterMayEdit(db: Db, companyId: string, userId: string): boolean {
  const row = db
    .prepare(
      `SELECT u.active, m.status, m.permissions, c.status AS company_status, c.plan_status
         FROM users u
         JOIN companies c ON c.id = ?
         LEFT JOIN memberships m ON m.company_id = c.id AND m.user_id = u.id
        WHERE u.id = ?`,
    )
    .get(companyId, userId) as
    | { active: number; status: string | null; permissions: string | null; company_status: string; plan_status: string }
    | undefined;
  if (!row || !row.active || row.status !== 'active' || row.permissions === null) return false;
  if (row.company_status !== 'active' || !['active', 'trialing'].includes(row.plan_status)) return false;
  const perms = parsePermissions(row.permissions);
  return has(perms, 'api_access', 'manage') && has(perms, 'transactions', 'manage');
}

const permissionDenied: JobErrorEntry = {
  type: 'permission_error',
  code: 'permission_denied',
  message: 'The submitter of this job no longer holds the Transactions: Manage and API access: Manage permissions in this company.',
  transaction_id: null,
};

function loadRows(db: Db, companyId: string, ids: string[]): Map<string, TxnRow> {
  // The unary + keeps SQLite on the primary key instead of scanning the whole company.
  const rows = prepared(db, `${TXN_SELECT} WHERE +t.company_id = ? AND t.id IN (SELECT value FROM json_each(?))`).all(
    companyId,
    JSON.stringify(ids),
  ) as TxnRow[];
  return new Map(rows.map((r) => [r.id, r]));
}

type Selection = { rows: TxnRow[] } | { errors: JobErrorEntry[] };

function select(db: Db, companyId: string, req: BulkRequest): Selection {
  if (req.selector.kind === 'ids') {
    const found = loadRows(db, companyId, req.selector.ids);
    const errors: JobErrorEntry[] = [];
    const rows: TxnRow[] = [];
    for (const id of req.selector.ids) {
      const row = found.get(id);
      if (!row || row.hidden || row.deleted) errors.push(txnError('transaction_update_failed', id, `No such transaction: ${id}.`));
      else if (row.transaction_type === 'split') errors.push(txnError('transaction_update_failed', id, `Split transactions cannot be edited (${id}).`));
      else rows.push(row);
    }
    return errors.length ? { errors } : { rows };
  }
  const where = filterWhere(req.selector.filters);
  const rows = db
    .prepare(
      `${TXN_SELECT} WHERE t.company_id = ? AND t.hidden = 0 AND t.deleted = 0 AND t.transaction_type <> 'split'
         ${where.sql.map((c) => `AND ${c}`).join(' ')} ORDER BY t.date, t.id LIMIT ?`,
    )
    .all(companyId, ...where.args, MAX_TARGETS + 1) as TxnRow[];
  if (rows.length > MAX_TARGETS) {
    return { errors: [txnError('transaction_limit_exceeded', null, `The filters match more than ${MAX_TARGETS} transactions; narrow them.`)] };
  }
  return { rows };
}

/** Freezes the targets. True when the job is now processing and waits for commitJob. */
export function startJob(db: Db, job: JobRow, clock: Clock): boolean {
  const now = clock.now();
  if (!submitterMayEdit(db, job.company_id, job.user_id)) {
    failJob(db, job.id, [permissionDenied], now);
    return false;
  }
  const selection = select(db, job.company_id, parseBulkBody(JSON.parse(job.body)));
  if ('errors' in selection) {
    failJob(db, job.id, selection.errors, now);
    return false;
  }
  const { rows } = selection;
  if (rows.length === 0) {
    db.prepare("UPDATE jobs SET status = 'success', matched_count = 0, updated_count = 0, started_at = ?, finished_at = ? WHERE id = ?").run(now, now, job.id);
    return false;
  }
  const targets: Target[] = rows.map((r) => ({ id: r.id, snapshot: snapshotOf(r) }));
  db.prepare("UPDATE jobs SET status = 'processing', matched_count = ?, targets = ?, started_at = ? WHERE id = ?").run(
    rows.length,
    JSON.stringify(targets),
    now,
    job.id,
  );
  return true;
}

/** Checks permission, conflicts and rules, then applies every edit at once, or fails the job changing nothing. */
export function commitJob(db: Db, jobId: string, clock: Clock): void {
  const job = db.prepare('SELECT * FROM jobs WHERE id = ?').get(jobId) as JobRow | undefined;
  if (!job || job.status !== 'processing') return;
  const req = parseBulkBody(JSON.parse(job.body));
  const targets = JSON.parse(job.targets ?? '[]') as Target[];
  const now = clock.now();
  db.transaction(() => {
    if (!submitterMayEdit(db, job.company_id, job.user_id)) return failJob(db, job.id, [permissionDenied], now);
    const rows = loadRows(db, job.company_id, targets.map((t) => t.id));
    const conflicts = targets
      .filter((t) => rows.get(t.id) === undefined || snapshotOf(rows.get(t.id)!) !== t.snapshot)
      .map((t) => txnError('transaction_conflict', t.id, `Transaction ${t.id} changed after the job started; submit again with a new Idempotency-Key.`));
    if (conflicts.length) return failJob(db, job.id, conflicts, now);

    const window = accountingWindow(db, job.company_id, clock.today());
    const broken: JobErrorEntry[] = [];
    for (const t of targets) {
      const v = firstViolation(db, rows.get(t.id)!, req.edit, window);
      if (v) broken.push(txnError('transaction_update_failed', t.id, v.message));
    }
    if (broken.length) return failJob(db, job.id, broken, now);

    const updated = targets.filter((t) => applyEdit(db, rows.get(t.id)!, req.edit, now)).length;
    db.prepare("UPDATE jobs SET status = 'success', updated_count = ?, finished_at = ? WHERE id = ?").run(updated, now, job.id);
  })();
}
