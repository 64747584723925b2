// Unfinished pushes: bulk jobs whose result was never written to their rows (a lost answer, a crashed
// pane, Excel closed). Nothing here runs on its own: Review lists them (what, how many rows, which
// company, when, by which connection, and whether this connection may resume them), and only the jobs
// the user confirms are resumed. A job whose id is known is polled (GET only); one whose POST answer was
// lost is re-POSTed with the same key and the same body, rebuilt from the table and sent only when its
// digest matches the one journalled, so it can only be the request the user reviewed. Everything else is
// shown and can be discarded, never sent.

import { ApiError, type BulkUpdateJob, type BulkUpdateParams } from '../../api';
import { cellText, COL, KEY_COLUMN, type TableView } from './columns';
import { callsSince, editContext, meterSnapshot, openTable, readView, type Deps, type OpenTable, type ProgressFn } from './context';
import { canonicalUpdate, checkEdit, describeUpdate, detectEdit, type EditContext, type EditUpdate } from './edits';
import { terminalJobOutcomes, waitTerminal, type JobReport } from './jobs';
import { bodyDigest, canonicalBody, type JobKind, type JournalEntry } from './journal';
import * as M from './messages';
import type { PushRecord } from './logEntry';
import { errorReason, writeOutcomes, type RowOutcome } from './outcomes';
import type { SyncOutcome } from './pull';
import { readBackNow, settleThenReread } from './reread';

/** Journal entries older than this are past the API's 30-day job retention margin. */
const JOB_RETENTION_MARGIN_MS = 29 * 86_400_000;

const EXPIRED_STATUS = 'Outcome unknown (the job expired) — refresh to see the current values, then push again if needed';

/** An unfinished push as the review shows it. */
export interface UnfinishedPush {
  idempotencyKey: string;
  kind: JobKind;
  /** "Department → Company > Sales > East", "Accounting date shifted +1 month(s)". */
  description: string;
  rows: number;
  /** ISO time it was started, when known. */
  startedAt: string | null;
  /** The connection that started it. */
  startedBy: string;
  /** The job was created (its id is known): resuming only reads its result. */
  jobKnown: boolean;
  /** This connection may resume it, once the user confirms. */
  resumable: boolean;
  /** What resuming does and costs, or why it cannot be resumed. */
  note: string;
  /** Calls resuming costs at least (polls of a long job add more). */
  calls: number;
  /** The rows it covers, when the table still shows them (their Push status carries its mark). */
  ids: string[];
}

interface Assessed {
  push: UnfinishedPush;
  entry?: JournalEntry;
  /** The exact body to replay (no job id): rebuilt from the table, digest checked. */
  body?: BulkUpdateParams;
}

function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The body of an entry rebuilt from the table: first from the rows that carry its mark, else (an edit
 * job whose marks were lost with an unsaved workbook) from the rows whose edit is its update, cut as the
 * push cut them. Accepted only when its digest is the one journalled.
 */
async function rebuildBody(entry: JournalEntry, view: TableView, ctx: EditContext, maxJobIds: number): Promise<BulkUpdateParams | undefined> {
  const candidates: string[][] = [];
  const marked = view.rows.filter((r) => !r.problem && cellText(r.get(COL.pushStatus)) === M.sending(entry.idempotencyKey)).map((r) => r.id);
  if (marked.length) candidates.push(marked);
  if (entry.kind === 'edit') {
    // The rows whose edit, as the cells show it now, is the update the job sent.
    const wanted = canonicalUpdate(entry.update as EditUpdate);
    const ids = view.rows
      .filter((r) => {
        const edit = r.problem ? null : detectEdit(r, ctx.system);
        const checked = edit ? checkEdit(edit, ctx) : null;
        return checked?.ok === true && canonicalUpdate(checked.edit.update) === wanted;
      })
      .map((r) => r.id);
    for (let i = 0; i < ids.length; i += maxJobIds) candidates.push(ids.slice(i, i + maxJobIds));
  }
  for (const ids of candidates) {
    if (ids.length !== entry.rows) continue;
    const body = canonicalBody({ transaction_ids: ids, updates: entry.update });
    if ((await bodyDigest(body)) === entry.digest) return body;
  }
  return undefined;
}

/** What may be done with each unfinished push of the table, by this connection. No call. */
async function assess(deps: Deps, t: OpenTable, view: TableView): Promise<Assessed[]> {
  const out: Assessed[] = [];
  const estimate = (jobKnown: boolean) => (jobKnown ? 1 : 2) + 1;
  for (const entry of await t.journal.entries()) {
    const ids = view.rows.filter((r) => cellText(r.get(COL.pushStatus)) === M.sending(entry.idempotencyKey)).map((r) => r.id);
    const base = {
      idempotencyKey: entry.idempotencyKey,
      kind: entry.kind,
      description: describeUpdate(entry.update as EditUpdate, t.dir),
      rows: entry.rows,
      startedAt: isoTime(entry.createdAt),
      startedBy: entry.startedBy,
      jobKnown: entry.jobId !== undefined,
      ids,
    };
    if (entry.keyFingerprint !== deps.owner.keyFingerprint) {
      out.push({ entry, push: { ...base, resumable: false, calls: 0, note: `Started with another API key (${entry.startedBy}): only that key may resume it. Discard it, or connect with that key.` } });
      continue;
    }
    if (entry.jobId) {
      // Nothing is sent again; the rebuilt body only tells which rows the result is written to.
      const known = await rebuildBody(entry, view, editContext(deps, t), deps.maxJobIds);
      out.push({
        entry,
        push: {
          ...base,
          ids: known?.transaction_ids ?? ids,
          resumable: true,
          calls: estimate(true),
          note: `The job was created: resuming reads its result (about ${estimate(true)} calls) and sends nothing new.`,
        },
      });
      continue;
    }
    if (entry.kind === 'shift' && deps.now() - entry.createdAt > JOB_RETENTION_MARGIN_MS) {
      out.push({ entry, push: { ...base, resumable: false, calls: 0, note: 'Too old to send again safely (a shift could apply twice). Discard it; Refresh shows the accounting dates.' } });
      continue;
    }
    const body = await rebuildBody(entry, view, editContext(deps, t), deps.maxJobIds);
    if (!body) {
      out.push({
        entry,
        push: {
          ...base,
          resumable: false,
          calls: 0,
          note: 'Its answer was lost, and the table no longer shows exactly the rows it sent, so it is not sent again. Discard it; Refresh shows whether it was applied.',
        },
      });
      continue;
    }
    out.push({
      entry,
      body,
      push: {
        ...base,
        ids: body.transaction_ids ?? ids,
        resumable: true,
        calls: estimate(false),
        note: `Its answer was lost: resuming sends the same request with the same key (about ${estimate(false)} calls), which returns the job if it was created, or creates it once.`,
      },
    });
  }
  for (const legacy of await t.journal.legacy()) {
    out.push({
      push: {
        idempotencyKey: legacy.idempotencyKey,
        kind: legacy.kind,
        description: legacy.kind === 'shift' ? 'Accounting dates shifted' : 'Edits',
        rows: legacy.rows,
        startedAt: legacy.createdAt === null ? null : isoTime(legacy.createdAt),
        startedBy: 'this workbook',
        jobKnown: false,
        resumable: false,
        calls: 0,
        note: "Found in this workbook's settings (an earlier version of the add-in, or a file from someone else): never sent from there. Discard it; Refresh shows whether it was applied.",
        ids: [],
      },
    });
  }
  return out;
}

/** The table's unfinished pushes (no call): what Review shows. */
export async function unfinishedPushes(deps: Deps, t: OpenTable, view: TableView): Promise<UnfinishedPush[]> {
  return (await assess(deps, t, view)).map((a) => a.push);
}

/** The Push status marks of the table's unfinished pushes, with the message their rows are held with. */
export async function unfinishedMarks(t: OpenTable): Promise<Map<string, string>> {
  const marks = new Map<string, string>();
  for (const entry of await t.journal.entries()) marks.set(M.sending(entry.idempotencyKey), M.partOfUnfinished(isoTime(entry.createdAt)));
  return marks;
}

export interface ResumeResult {
  /** Unfinished pushes resumed. */
  entries: number;
  reports: JobReport[];
  updated: number;
  failed: number;
  unknown: number;
}

/** Finishes the confirmed, resumable pushes: poll a known job, or re-POST the same key and the rebuilt body. */
async function resumeConfirmed(deps: Deps, t: OpenTable, keys: readonly string[], onProgress?: ProgressFn, log?: PushRecord): Promise<ResumeResult> {
  const view = await readView(deps, t);
  const chosen = (await assess(deps, t, view)).filter((a) => a.push.resumable && a.entry && keys.includes(a.push.idempotencyKey));
  const result: ResumeResult = { entries: chosen.length, reports: [], updated: 0, failed: 0, unknown: 0 };
  if (chosen.length === 0) return result;
  log?.sending(t, view, chosen.map((c) => ({ ids: c.push.ids, update: c.entry!.update, via: 'job' as const })));
  onProgress?.({ phase: 'resuming', message: `Resuming ${M.pluralJobs(chosen.length)}…` });
  const outcomes: RowOutcome[] = [];
  const finished: string[] = [];
  for (const { entry, body, push } of chosen) {
    const e = entry!;
    const ids = push.ids;
    const report: JobReport = { idempotencyKey: e.idempotencyKey, jobId: e.jobId ?? null, kind: e.kind, rows: e.rows, update: e.update, result: 'unknown', updatedCount: null, errors: 0, resumed: true };
    result.reports.push(report);
    try {
      const job = await terminalJob(deps, t, e, body, report);
      outcomes.push(...(await terminalJobOutcomes(deps, t, view, job, report, ids, e.update)));
      finished.push(e.idempotencyKey);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404 && report.jobId) {
        // The job is gone (retention): its outcome cannot be read. The rows keep their edits; a refresh
        // shows whether the values arrived, and a push sends what is still different.
        report.reason = 'job expired';
        for (const id of ids) outcomes.push({ id, ok: false, status: EXPIRED_STATUS });
        finished.push(e.idempotencyKey);
      } else {
        report.reason = errorReason(err);
        for (const id of ids) outcomes.push({ id, ok: false, unknown: true, status: M.sending(e.idempotencyKey) });
      }
    }
  }
  log?.jobs({ reports: result.reports, outcomes });
  await writeOutcomes(deps, t, view, outcomes, { sent: chosen.map((c) => ({ ids: c.push.ids, update: c.entry!.update })), finishedKeys: finished });
  for (const r of result.reports) {
    if (r.result === 'success') result.updated += r.rows;
    else if (r.result === 'failed') result.failed += r.rows;
    else result.unknown += r.rows;
  }
  return result;
}

/** The entry's job, terminal: polled when its id is known, else replayed with the same key and exact body. */
async function terminalJob(deps: Deps, t: OpenTable, entry: JournalEntry, body: BulkUpdateParams | undefined, report: JobReport): Promise<BulkUpdateJob> {
  if (entry.jobId) {
    const jobId = entry.jobId;
    return waitTerminal(deps, await deps.spend('/jobs/{id}', (o) => deps.client.jobs.retrieve(jobId, { limit: 500 }, o)));
  }
  // Same key, same body: the API returns the original job if the lost POST had created one.
  const { job } = await deps.spend('/transactions/bulk/update', (o) => deps.client.jobs.submit(body!, { ...o, idempotencyKey: entry.idempotencyKey }));
  report.jobId = job.id;
  await t.journal.recordJobId(entry, job.id);
  return waitTerminal(deps, job);
}

/** The table's unfinished pushes, as Review shows them (no call). */
export async function unfinished(deps: Deps, bindingId: string): Promise<UnfinishedPush[]> {
  const t = await openTable(deps, bindingId);
  return unfinishedPushes(deps, t, await readView(deps, t));
}

/** Resumes the unfinished pushes the user confirmed (by Idempotency-Key); others are left as they are. */
export async function resume(
  deps: Deps,
  bindingId: string,
  keys: readonly string[],
  onProgress?: ProgressFn,
  log?: PushRecord,
): Promise<ResumeResult & { reread: SyncOutcome | null; calls: number | null; warnings: string[] }> {
  const snap = await meterSnapshot(deps.client);
  const t = await openTable(deps, bindingId);
  log?.opened(t);
  const warnings: string[] = [];
  const r = await resumeConfirmed(deps, t, keys, onProgress, log);
  const reread = readBackNow(r.reports) ? await settleThenReread(deps, t, warnings, onProgress) : null;
  return { ...r, reread, warnings, calls: await callsSince(deps.client, snap) };
}

/**
 * Forgets unfinished pushes the user chose to discard (no call): their entries leave the journal and
 * their rows' marks are cleared, so the next review looks at those rows afresh.
 */
export async function discard(deps: Deps, bindingId: string, keys: readonly string[]): Promise<void> {
  const t = await openTable(deps, bindingId);
  const view = await readView(deps, t);
  const marks = new Set(keys.map((k) => M.sending(k)));
  const cleared = view.rows.filter((r) => marks.has(cellText(r.get(COL.pushStatus)))).map((r) => ({ key: r.id, values: { [COL.pushStatus]: null } }));
  if (cleared.length) await deps.gateway.updateRowsByKey(t.table, KEY_COLUMN, cleared);
  const flags = await t.store.flags();
  let changed = false;
  for (const u of cleared) {
    if (flags[u.key]) {
      delete flags[u.key];
      changed = true;
    }
  }
  if (changed) await t.store.writeFlags(flags);
  await t.journal.remove(keys);
}
