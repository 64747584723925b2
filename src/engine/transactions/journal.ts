// The push journal: each bulk job's Idempotency-Key with its exact body, recorded BEFORE the POST, so a
// push cut short by a crash or a closed workbook is resumed as the same job instead of a second one.
//
// This is the one module that knows where and how entries are kept (today: workbook settings, one
// listing the table's keys and one per entry). Everything else goes through PushJournal, so moving the
// journal elsewhere changes this file only.

import type { Json, WorkbookGateway } from '../ports/workbook';
import type { BulkUpdateParams } from '../../api';

export type JobKind = 'edit' | 'shift';

export interface JournalEntry {
  idempotencyKey: string;
  bindingId: string;
  kind: JobKind;
  /** The exact body POSTed (a replay must send the same JSON value). */
  body: BulkUpdateParams;
  /** ms since epoch when the key was stored. */
  createdAt: number;
  /** Known once a POST answered; polling then needs no re-POST. */
  jobId?: string;
}

/** What a job needs recorded before its POST; the journal adds the table and the time. */
export type NewJournalEntry = Pick<JournalEntry, 'idempotencyKey' | 'kind' | 'body'>;

/** One table's unfinished bulk jobs. */
export interface PushJournal {
  /** The table's entries, oldest first. */
  entries(): Promise<JournalEntry[]>;
  /** How many entries wait, without reading them. */
  size(): Promise<number>;
  /** Before the POST: once this resolves, a lost answer can be replayed with the same key and body. */
  add(entry: NewJournalEntry): Promise<JournalEntry>;
  /** The POST answered: resuming polls the job instead of replaying it. */
  recordJobId(entry: JournalEntry, jobId: string): Promise<void>;
  /** Only after the rows' results were written to the table. */
  remove(idempotencyKeys: readonly string[]): Promise<void>;
  /** Everything, when the table is forgotten. */
  clear(): Promise<void>;
}

export const journalKey = (bindingId: string) => `transactions.pushJournal.${bindingId}`;
export const journalEntryKey = (idempotencyKey: string) => `transactions.pushJob.${idempotencyKey}`;

const asJson = <T>(v: T): Json => v as unknown as Json;

export function openJournal(gateway: WorkbookGateway, bindingId: string, now: () => number): PushJournal {
  const keys = async (): Promise<string[]> => {
    const v = await gateway.readSetting(journalKey(bindingId));
    return Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : [];
  };
  const write = (entry: JournalEntry) => gateway.writeSetting(journalEntryKey(entry.idempotencyKey), asJson(entry));

  const remove = async (idempotencyKeys: readonly string[]): Promise<void> => {
    if (idempotencyKeys.length === 0) return;
    // Index first, then the entries: a crash in between leaves orphans that nothing lists.
    const left = (await keys()).filter((k) => !idempotencyKeys.includes(k));
    if (left.length === 0) await gateway.removeSetting(journalKey(bindingId));
    else await gateway.writeSetting(journalKey(bindingId), left);
    for (const k of idempotencyKeys) await gateway.removeSetting(journalEntryKey(k));
  };

  return {
    async entries() {
      const out: JournalEntry[] = [];
      for (const key of await keys()) {
        const e = await gateway.readSetting(journalEntryKey(key));
        if (e && typeof e === 'object' && !Array.isArray(e) && (e as unknown as JournalEntry).bindingId === bindingId) out.push(e as unknown as JournalEntry);
      }
      return out;
    },
    size: async () => (await keys()).length,
    async add(fields) {
      const entry: JournalEntry = { idempotencyKey: fields.idempotencyKey, bindingId, kind: fields.kind, body: fields.body, createdAt: now() };
      // Entry first, then the index: a crash in between leaves an orphan that was never sent.
      await write(entry);
      const listed = await keys();
      if (!listed.includes(entry.idempotencyKey)) await gateway.writeSetting(journalKey(bindingId), [...listed, entry.idempotencyKey]);
      return entry;
    },
    recordJobId: (entry, jobId) => write({ ...entry, jobId }),
    remove,
    clear: async () => remove(await keys()),
  };
}
