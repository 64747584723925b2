// The push journal: for each bulk job, what resuming it needs, recorded BEFORE its POST, so a push cut
// short (a lost answer, a crashed pane, Excel closed without saving) is finished as the same job, never
// sent twice, and never replayed blindly:
//   - it lives in add-in storage (OfficeRuntime.storage), not in the workbook: it survives a crash without
//     a save, and it never travels with the file to a colleague (a journal in the file could be replayed
//     with the opener's key);
//   - it is small: the Idempotency-Key, the job id once known, the update, the number of rows and a digest
//     of the exact body posted. The ids are not kept: before the POST the job's rows are marked in the
//     Push status column, and resuming rebuilds the body from the table and sends it only when its digest
//     matches, so a replay is byte for byte the body the user reviewed;
//   - each entry is bound to its company, its table and a fingerprint of the key that started it; nothing
//     is resumed until the user has seen it in the review and confirmed it (resume.ts).
// This is the one module that knows where and how entries are kept.

import type { BulkUpdateParams } from '../../api';
import type { Json, WorkbookGateway } from '../ports/workbook';
import type { SecretStore } from '../ports/storage';

export type JobKind = 'edit' | 'shift';

export interface JournalEntry {
  idempotencyKey: string;
  bindingId: string;
  /** The company whose key started the job. */
  company: string;
  /** A short fingerprint of that key (never the key): only the same key resumes it. */
  keyFingerprint: string;
  /** Who started it, as the review shows it (the connection's name). */
  startedBy: string;
  kind: JobKind;
  /** The update every row of the job gets. */
  update: BulkUpdateParams['updates'];
  rows: number;
  /** SHA-256 (hex) of the exact JSON body posted. */
  digest: string;
  /** ms since epoch when the entry was recorded (before the POST). */
  createdAt: number;
  /** Known once the POST answered: resuming polls the job instead of replaying it. */
  jobId?: string;
}

/** An unfinished push found in the workbook's settings, written by an earlier version: shown, never resumed. */
export interface LegacyEntry {
  idempotencyKey: string;
  kind: JobKind;
  rows: number;
  createdAt: number | null;
}

/** What a job needs recorded before its POST; the journal adds the table, the company, the key and the time. */
export interface NewJournalEntry {
  idempotencyKey: string;
  kind: JobKind;
  body: BulkUpdateParams;
}

/** Whose journal: the connection that pushes. */
export interface JournalOwner {
  company: string;
  keyFingerprint: string;
  startedBy: string;
}

/** One table's unfinished bulk jobs. */
export interface PushJournal {
  /** The table's entries, oldest first (any company or key: the caller decides what may be resumed). */
  entries(): Promise<JournalEntry[]>;
  /** Entries an earlier version left in the workbook's settings. */
  legacy(): Promise<LegacyEntry[]>;
  /** Before the POST: once this resolves, a lost answer can be replayed with the same key and body. */
  add(entry: NewJournalEntry): Promise<JournalEntry>;
  /** The POST answered: resuming polls the job instead of replaying it. */
  recordJobId(entry: JournalEntry, jobId: string): Promise<void>;
  /** Only after the rows' results were written to the table (or the user discarded them). */
  remove(idempotencyKeys: readonly string[]): Promise<void>;
  /** Everything, when the table is forgotten. */
  clear(): Promise<void>;
}

/** Canonical JSON of a body: the digest and the POST see the same bytes whatever the key order. */
export function bodyText(body: BulkUpdateParams): string {
  const updates = body.updates as Record<string, unknown>;
  const sortedUpdates = Object.fromEntries(Object.keys(updates).sort().map((k) => [k, updates[k]]));
  return JSON.stringify({ transaction_ids: body.transaction_ids, updates: sortedUpdates });
}

/** The body as posted: built once, so the journal's digest and the request are the same value. */
export function canonicalBody(body: BulkUpdateParams): BulkUpdateParams {
  return JSON.parse(bodyText(body)) as BulkUpdateParams;
}

export async function bodyDigest(body: BulkUpdateParams): Promise<string> {
  const bytes = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(bodyText(body)));
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

export const journalStorageKey = (company: string, bindingId: string) => `push-journal:${company}:${bindingId}`;
/** Where earlier versions kept the journal: the workbook's settings. */
export const legacyJournalKey = (bindingId: string) => `transactions.pushJournal.${bindingId}`;
export const legacyJournalEntryKey = (idempotencyKey: string) => `transactions.pushJob.${idempotencyKey}`;

function parseEntries(text: string | undefined): JournalEntry[] {
  if (!text) return [];
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter((e): e is JournalEntry => !!e && typeof e === 'object' && typeof (e as JournalEntry).idempotencyKey === 'string') : [];
  } catch {
    return [];
  }
}

export function openJournal(options: { store: SecretStore; gateway: WorkbookGateway; bindingId: string; owner: JournalOwner; now: () => number }): PushJournal {
  const { store, gateway, bindingId, owner, now } = options;
  const key = journalStorageKey(owner.company, bindingId);
  const read = async () => parseEntries(await store.get(key));
  const write = async (entries: JournalEntry[]) => (entries.length ? store.set(key, JSON.stringify(entries)) : store.remove(key));

  const legacyKeys = async (): Promise<string[]> => {
    const v = await gateway.readSetting(legacyJournalKey(bindingId));
    return Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : [];
  };

  return {
    entries: read,
    async legacy() {
      const out: LegacyEntry[] = [];
      for (const k of await legacyKeys()) {
        const e = (await gateway.readSetting(legacyJournalEntryKey(k))) as { [key: string]: Json } | undefined;
        const body = e && typeof e === 'object' ? (e.body as { transaction_ids?: unknown[] } | undefined) : undefined;
        out.push({
          idempotencyKey: k,
          kind: e?.kind === 'shift' ? 'shift' : 'edit',
          rows: Array.isArray(body?.transaction_ids) ? body.transaction_ids.length : 0,
          createdAt: typeof e?.createdAt === 'number' ? e.createdAt : null,
        });
      }
      return out;
    },
    async add(fields) {
      const entry: JournalEntry = {
        idempotencyKey: fields.idempotencyKey,
        bindingId,
        company: owner.company,
        keyFingerprint: owner.keyFingerprint,
        startedBy: owner.startedBy,
        kind: fields.kind,
        update: fields.body.updates,
        rows: fields.body.transaction_ids?.length ?? 0,
        digest: await bodyDigest(fields.body),
        createdAt: now(),
      };
      const entries = (await read()).filter((e) => e.idempotencyKey !== entry.idempotencyKey);
      await write([...entries, entry]);
      return entry;
    },
    async recordJobId(entry, jobId) {
      await write((await read()).map((e) => (e.idempotencyKey === entry.idempotencyKey ? { ...e, jobId } : e)));
    },
    async remove(idempotencyKeys) {
      if (idempotencyKeys.length === 0) return;
      await write((await read()).filter((e) => !idempotencyKeys.includes(e.idempotencyKey)));
      // An earlier version's entries leave the workbook the same way: index first, then the entries.
      const legacy = await legacyKeys();
      const gone = legacy.filter((k) => idempotencyKeys.includes(k));
      if (gone.length) {
        const left = legacy.filter((k) => !gone.includes(k));
        if (left.length) await gateway.writeSetting(legacyJournalKey(bindingId), left);
        else await gateway.removeSetting(legacyJournalKey(bindingId));
        for (const k of gone) await gateway.removeSetting(legacyJournalEntryKey(k));
      }
    },
    async clear() {
      await write([]);
      const legacy = await legacyKeys();
      if (legacy.length) {
        await gateway.removeSetting(legacyJournalKey(bindingId));
        for (const k of legacy) await gateway.removeSetting(legacyJournalEntryKey(k));
      }
    },
  };
}
