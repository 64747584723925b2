// The push log (issue 28, item 3): every push, shift and resumed push appends its entry to one log sheet of
// the workbook, for the auditor's question "who changed what, from what to what, when, under which job".
// One row per transaction and field: when (the user's local time with its zone, and UTC), the connection and
// company, a fingerprint of the key (never the key), the transaction, the value before, the one asked for and
// the one after as the API confirmed it, the job or PATCH that carried it, and the outcome with its reason.
// The log is an Excel table on its own sheet, created on the first push and kept under Excel's sheet
// protection without a password (against casual edits; Review > Unprotect Sheet lifts it): the add-in lifts
// it to append and puts it back. Every cell but the entry number is text, written through the gateway's text
// writer: the API's words (a merchant, a reason) never become a formula. What the Transactions tab shows of
// the log (its last entries) and which entry an unfinished push belongs to are kept beside it in the
// workbook's settings; a file can forge those, so the log is checked for what it is before any use (findLog).

import { GatewayError, type Json, type ReadValue, type TableColumnSpec, type TableRead, type WorkbookGateway, type WriteValue } from '../ports/workbook';

export type LogAction = 'Push' | 'Shift' | 'Resumed push';

/** How a change ended, as the API confirmed it (or did not). */
export type LogOutcome = 'Applied' | 'Refused' | 'Failed job' | 'Not sent' | 'Interrupted';

/** One transaction's field in an entry. */
export interface LoggedChange {
  transaction: string;
  field: string;
  before: string;
  requested: string;
  /** As the API confirmed it; the value before when nothing changed; '' when not known. */
  after: string;
  /** "PATCH", "Job job_…", "Job not created", with the push's mark where it has one. */
  sentAs: string;
  outcome: LogOutcome;
  reason: string;
}

export interface PushLogEntry {
  action: LogAction;
  /** ms since epoch. */
  at: number;
  /** The user's IANA time zone (UTC when unknown). */
  timeZone?: string;
  connection: string;
  company: { id: string; name?: string };
  keyFingerprint: string;
  /** The transactions table pushed from. */
  table: string;
  /** Entries this one resumes (a resumed push names the push it finishes). */
  resumes?: number[];
  /** The marks ("push 1a2b3c4d") of jobs this entry left unfinished: a resumption finds the entry by them. */
  unfinished?: string[];
  /** The marks of unfinished jobs this entry finished (a resumed push). */
  finished?: string[];
  /** Why the run stopped before every outcome was known, when it did. */
  stopped?: string;
  changes: LoggedChange[];
}

/** An entry as the Transactions tab lists it. */
export interface LogSummary {
  entry: number;
  action: LogAction;
  /** "2026-03-05 14:12:09 Europe/Paris (UTC+01:00)". */
  when: string;
  connection: string;
  company: string;
  resumes?: number[];
  counts: Record<LogOutcome, number>;
  stopped?: string;
}

const SETTING = 'pushLog';
export const LOG_SHEET = 'Push log';
const LOG_TABLE = 'FinPushLog';
/** Entries the Transactions tab can list. */
const RECENT = 20;

export const LOG_COLUMNS: readonly TableColumnSpec[] = [
  { name: 'Entry', kind: 'number', numberFormat: '0', width: 40 },
  { name: 'Action', kind: 'text', width: 80 },
  { name: 'Resumes', kind: 'text', width: 60 },
  { name: 'Local time', kind: 'text', width: 110 },
  { name: 'Time zone', kind: 'text', width: 150 },
  { name: 'UTC', kind: 'text', width: 120 },
  { name: 'Connection', kind: 'text', width: 100 },
  { name: 'Company', kind: 'text', width: 150 },
  { name: 'Key fingerprint', kind: 'text', width: 90 },
  { name: 'Table', kind: 'text', width: 100 },
  { name: 'Transaction', kind: 'text', width: 120 },
  { name: 'Field', kind: 'text', width: 90 },
  { name: 'Before', kind: 'text', width: 150 },
  { name: 'Requested', kind: 'text', width: 150 },
  { name: 'After', kind: 'text', width: 150 },
  { name: 'Sent as', kind: 'text', width: 170 },
  { name: 'Outcome', kind: 'text', width: 80 },
  { name: 'Reason', kind: 'text', width: 300 },
];

interface LogIndex {
  table: string;
  sheet: string;
  next: number;
  recent: LogSummary[];
  /** Marks of unfinished jobs, with the entry that left them. */
  unfinished: { mark: string; entry: number }[];
}

function readIndex(raw: Json | undefined): LogIndex | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const v = raw as unknown as Partial<LogIndex>;
  if (typeof v.table !== 'string' || typeof v.sheet !== 'string' || typeof v.next !== 'number') return null;
  return { table: v.table, sheet: v.sheet, next: v.next, recent: Array.isArray(v.recent) ? v.recent : [], unfinished: Array.isArray(v.unfinished) ? v.unfinished : [] };
}

function parts(at: number, timeZone: string, options: Intl.DateTimeFormatOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', ...options }).formatToParts(new Date(at))) {
    out[p.type] = p.value;
  }
  return out;
}

/** The time as the user's clock showed it, its zone, and UTC: "2026-03-05 14:12:09", "Europe/Paris (UTC+01:00)", "2026-03-05 13:12:09 UTC". */
export function logTimes(at: number, timeZone = 'UTC'): { local: string; zone: string; utc: string } {
  let zone = timeZone;
  let p: Record<string, string>;
  try {
    p = parts(at, zone, { timeZoneName: 'longOffset' });
  } catch {
    zone = 'UTC';
    p = parts(at, zone, { timeZoneName: 'longOffset' });
  }
  const offset = (p.timeZoneName ?? 'GMT').replace(/^GMT/, 'UTC') || 'UTC';
  const utc = new Date(at).toISOString();
  return {
    local: `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`,
    zone: `${zone} (${offset === 'UTC' ? 'UTC+00:00' : offset})`,
    utc: `${utc.slice(0, 10)} ${utc.slice(11, 19)} UTC`,
  };
}

function countsOf(changes: readonly Pick<LoggedChange, 'outcome'>[]): Record<LogOutcome, number> {
  const counts: Record<LogOutcome, number> = { Applied: 0, Refused: 0, 'Failed job': 0, 'Not sent': 0, Interrupted: 0 };
  for (const c of changes) counts[c.outcome] += 1;
  return counts;
}

/** The entry as rows of the log; an entry that stopped before any change is one row saying why. */
function rowsOf(n: number, entry: PushLogEntry): WriteValue[][] {
  const t = logTimes(entry.at, entry.timeZone);
  const head: WriteValue[] = [
    n,
    entry.action,
    entry.resumes?.length ? entry.resumes.map((r) => `Entry ${r}`).join(', ') : null,
    t.local,
    t.zone,
    t.utc,
    entry.connection,
    entry.company.name ? `${entry.company.name} (${entry.company.id})` : entry.company.id,
    entry.keyFingerprint,
    entry.table,
  ];
  if (entry.changes.length === 0) return [[...head, null, null, null, null, null, null, 'Not sent', entry.stopped ?? 'Nothing was sent']];
  return entry.changes.map((c) => [...head, c.transaction, c.field, c.before, c.requested, c.after, c.sentAs, c.outcome, c.reason || null]);
}

/** The add-in's log as found in the workbook, none, or one the settings point at that is not it. */
type FoundLog = { state: 'none' } | { state: 'found'; table: TableRead } | { state: 'setAside'; why: string };

/**
 * The log the workbook's settings point at, checked for what it is: a table with the log's columns, on a
 * visible sheet, whose entries run up to the last one recorded. The pointer alone is never trusted (a crafted
 * file can aim it at a table on a hidden sheet, or at a user's own table): a log that does not check out is
 * set aside, left as it is, and never written to.
 */
async function findLog(gateway: WorkbookGateway, index: LogIndex | null): Promise<FoundLog> {
  if (!index) return { state: 'none' };
  let table: TableRead;
  try {
    table = await gateway.readTable(index.table);
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'NotFound') return { state: 'none' };
    throw error;
  }
  const where = `the table ${table.name} on the sheet "${table.sheet}"`;
  const sheet = (await gateway.listSheets()).find((s) => s.name.toLowerCase() === table.sheet.toLowerCase());
  if (!sheet?.visible) return { state: 'setAside', why: `${where} is on a hidden sheet` };
  if (table.columns.join('\n') !== LOG_COLUMNS.map((c) => c.name).join('\n')) return { state: 'setAside', why: `${where} does not have the log's columns` };
  let last = 0;
  for (const row of table.rows) {
    const n = row[0];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) return { state: 'setAside', why: `${where} has rows that are no entry of the log` };
    last = Math.max(last, n);
  }
  if (last !== index.next - 1) return { state: 'setAside', why: `${where} does not end with entry ${index.next - 1}, the last the workbook recorded` };
  return { state: 'found', table };
}

/** A summary the settings keep, kept only when the log's rows bear it out (the settings can be crafted too). */
function borneOut(summary: LogSummary, rows: readonly ReadValue[][]): boolean {
  const own = rows.filter((r) => r[0] === summary.entry);
  if (own.length === 0) return false;
  const [first] = own;
  if (first[1] !== summary.action || `${String(first[3])} ${String(first[4])}` !== summary.when || first[6] !== summary.connection) return false;
  const counts = countsOf(own.filter((r) => r[10] !== '' && r[10] !== null).map((r) => ({ outcome: r[16] as LogOutcome })));
  return (Object.keys(counts) as LogOutcome[]).every((k) => counts[k] === summary.counts?.[k]);
}

/**
 * Appends an entry: to the log's table, its sheet's protection lifted for the write and put back whatever
 * happens; or, on the first push (or when the user deleted the log), to a new log on a sheet of its own,
 * protected. Returns the entry's number and the log's sheet.
 */
export async function appendLogEntry(gateway: WorkbookGateway, entry: PushLogEntry): Promise<{ entry: number; sheet: string; warning?: string }> {
  const stored = readIndex(await gateway.readSetting(SETTING));
  const found = await findLog(gateway, stored);
  // A log set aside is left as it is: a new one starts, with its own numbers, jobs and entries listed. A log the
  // user deleted is made again, its numbers going on.
  const index = found.state === 'setAside' ? null : stored;
  const n = index?.next ?? 1;
  const rows = rowsOf(n, entry);
  let table = found.state === 'found' ? found.table.name : undefined;
  let sheet = found.state === 'found' ? found.table.sheet : undefined;
  let relocked: boolean;
  if (sheet && table) {
    await unlock(gateway, sheet);
    try {
      await gateway.appendRows(table, rows);
    } catch (error) {
      await gateway.protectSheet(sheet).catch(() => undefined);
      throw error;
    }
    relocked = await relock(gateway, sheet);
  } else {
    const ref = await gateway.createTable({ name: LOG_TABLE, columns: [...LOG_COLUMNS], rows, target: { kind: 'newSheet', name: LOG_SHEET, activate: false }, style: 'TableStyleLight1' });
    table = ref.name;
    sheet = ref.sheet;
    relocked = await relock(gateway, sheet);
  }
  const summary: LogSummary = {
    entry: n,
    action: entry.action,
    when: (({ local, zone }) => `${local} ${zone}`)(logTimes(entry.at, entry.timeZone)),
    connection: entry.connection,
    company: entry.company.name ?? entry.company.id,
    ...(entry.resumes?.length ? { resumes: entry.resumes } : {}),
    counts: countsOf(entry.changes),
    ...(entry.stopped ? { stopped: entry.stopped } : {}),
  };
  // A job still unfinished after a resumption stays with the entry that left it: a later one names that entry.
  const finished = new Set(entry.finished ?? []);
  const kept = (index?.unfinished ?? []).filter((u) => !finished.has(u.mark));
  const next: LogIndex = {
    table,
    sheet,
    next: n + 1,
    recent: [...(index?.recent ?? []), summary].slice(-RECENT),
    unfinished: [...kept, ...(entry.unfinished ?? []).filter((mark) => !kept.some((u) => u.mark === mark)).map((mark) => ({ mark, entry: n }))],
  };
  // The entry is in the log: its number is taken and its jobs noted whether or not the sheet could be protected.
  await gateway.writeSetting(SETTING, next as unknown as Json);
  const warnings: string[] = [];
  if (found.state === 'setAside') warnings.push(`The push log this workbook pointed at is not the add-in's (${found.why}): it was left as it is, and a new log was started on the sheet "${sheet}".`);
  if (!relocked) warnings.push(`Entry ${n} is in the push log, but Excel did not protect the sheet "${sheet}" again: protect it from Review > Protect Sheet (no password).`);
  return warnings.length > 0 ? { entry: n, sheet, warning: warnings.join(' ') } : { entry: n, sheet };
}

/**
 * Lifts the log sheet's protection to append. A sheet the user protected with a password cannot be lifted
 * without it (the add-in never asks for one): said, with what to do.
 */
async function unlock(gateway: WorkbookGateway, sheet: string): Promise<void> {
  try {
    await gateway.unprotectSheet(sheet);
  } catch (error) {
    if (!(error instanceof GatewayError) || error.code !== 'Protected') throw error;
    throw new GatewayError(
      'Protected',
      `The sheet "${sheet}" is protected with a password, so the add-in cannot add to the push log: remove the password (Review > Unprotect Sheet), then push again; the add-in protects the sheet again without one.`,
    );
  }
}

/** Protects the log sheet again; false when Excel refused (office-js#6784: a regression, fixed June 2026). */
async function relock(gateway: WorkbookGateway, sheet: string): Promise<boolean> {
  try {
    await gateway.protectSheet(sheet);
    return true;
  } catch {
    return false;
  }
}

/** The entries that left these unfinished jobs (by their marks), oldest first. */
export async function entriesOfMarks(gateway: WorkbookGateway, marks: readonly string[]): Promise<number[]> {
  const stored = readIndex(await gateway.readSetting(SETTING));
  const index = (await findLog(gateway, stored)).state === 'setAside' ? null : stored;
  const found = new Set((index?.unfinished ?? []).filter((u) => marks.includes(u.mark)).map((u) => u.entry));
  return [...found].sort((a, b) => a - b);
}

/** The last entries, newest first, and the log's sheet (null before the first push). */
export async function recentEntries(gateway: WorkbookGateway, count = 5): Promise<{ sheet: string | null; entries: LogSummary[] }> {
  const index = readIndex(await gateway.readSetting(SETTING));
  const found = await findLog(gateway, index);
  if (found.state !== 'found' || !index) return { sheet: null, entries: [] };
  const entries = count > 0 ? index.recent.filter((s) => borneOut(s, found.table.rows)) : [];
  return { sheet: found.table.sheet, entries: entries.slice(-count).reverse() };
}

/** Shows the log's sheet; refused, saying why, before the first push or when the log was deleted. */
export async function openLog(gateway: WorkbookGateway): Promise<string> {
  const { sheet } = await recentEntries(gateway, 0);
  if (!sheet) throw new GatewayError('NotFound', 'This workbook has no push log yet: it is made by the first push, shift or resumed push.');
  await gateway.activateSheet(sheet);
  return sheet;
}
