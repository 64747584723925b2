// What a transactions table keeps in the workbook besides its cells:
//  - its binding (kind 'transactions'): filters, refresh mode, the committed sync watermark, and the
//    reference data edits are checked against (department paths, incorporation date), so reviewing
//    edits after reopening the workbook costs no call;
//  - row flags (one setting per table): the few rows whose Push status is not derived from their cells
//    alone (deleted upstream, changed upstream under an edit, last push failure, local validation);
//  - the push journal (one setting per table listing job entries, one setting per entry): each bulk job's
//    Idempotency-Key with its exact body, written BEFORE the POST, so a push cut short by a crash or a
//    closed workbook is resumed as the same job instead of a second one.

import type { BindingRecord, Json, WorkbookGateway } from '../ports/workbook';
import type { BulkUpdateParams } from '../../api';
import type { DepartmentRef } from './departments';
import type { TransactionFilters } from './filters';

export const BINDING_KIND = 'transactions';

export interface Reference {
  departments: DepartmentRef[];
  /** GET /company incorporation.date; null when none is on file. */
  incorporationDate: string | null;
  /** ISO timestamp of the fetch. */
  fetchedAt: string;
}

export interface TableState {
  version: 1;
  filters: TransactionFilters;
  /** Only immutable filters (or none): refresh is incremental; otherwise refresh re-pulls. */
  incremental: boolean;
  /** The last committed watermark (after a complete sync run), or null before the first. */
  watermark: number | null;
  reference: Reference;
}

export type RowFlagKind = 'deleted' | 'unmatched' | 'upstream' | 'failed' | 'local';

export interface RowFlag {
  kind: RowFlagKind;
  message: string;
}

export type RowFlags = Record<string, RowFlag>;

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

export const flagsKey = (bindingId: string) => `transactions.flags.${bindingId}`;
export const journalKey = (bindingId: string) => `transactions.pushJournal.${bindingId}`;
export const journalEntryKey = (idempotencyKey: string) => `transactions.pushJob.${idempotencyKey}`;

const asJson = <T>(v: T): Json => v as unknown as Json;

export function stateOf(binding: BindingRecord): TableState {
  const p = binding.parameters as unknown as Partial<TableState>;
  if (p.version !== 1 || !p.reference || !p.filters) throw new Error(`The binding ${binding.id} is not a transactions table this version can read.`);
  return p as TableState;
}

export class TableStore {
  constructor(
    private readonly gateway: WorkbookGateway,
    readonly bindingId: string,
  ) {}

  async binding(): Promise<BindingRecord> {
    const b = (await this.gateway.listBindings()).find((x) => x.id === this.bindingId);
    if (!b || b.kind !== BINDING_KIND) throw new Error(`No transactions table with binding ${this.bindingId} in this workbook.`);
    return b;
  }

  async save(binding: BindingRecord, state: TableState, address?: string): Promise<BindingRecord> {
    const next: BindingRecord = {
      ...binding,
      parameters: asJson(state) as BindingRecord['parameters'],
      address: address ?? binding.address,
    };
    await this.gateway.saveBinding(next);
    return next;
  }

  async flags(): Promise<RowFlags> {
    const v = await this.gateway.readSetting(flagsKey(this.bindingId));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as unknown as RowFlags) : {};
  }

  async writeFlags(flags: RowFlags): Promise<void> {
    if (Object.keys(flags).length === 0) await this.gateway.removeSetting(flagsKey(this.bindingId));
    else await this.gateway.writeSetting(flagsKey(this.bindingId), asJson(flags));
  }

  // Journal ------------------------------------------------------------------------------------------

  async journalKeys(): Promise<string[]> {
    const v = await this.gateway.readSetting(journalKey(this.bindingId));
    return Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : [];
  }

  async entries(): Promise<JournalEntry[]> {
    const out: JournalEntry[] = [];
    for (const key of await this.journalKeys()) {
      const e = await this.gateway.readSetting(journalEntryKey(key));
      if (e && typeof e === 'object' && !Array.isArray(e)) out.push(e as unknown as JournalEntry);
    }
    return out;
  }

  /** Entry first, then the index: a crash in between leaves an orphan that was never sent. */
  async add(entry: JournalEntry): Promise<void> {
    await this.gateway.writeSetting(journalEntryKey(entry.idempotencyKey), asJson(entry));
    const keys = await this.journalKeys();
    if (!keys.includes(entry.idempotencyKey)) await this.gateway.writeSetting(journalKey(this.bindingId), [...keys, entry.idempotencyKey]);
  }

  async update(entry: JournalEntry): Promise<void> {
    await this.gateway.writeSetting(journalEntryKey(entry.idempotencyKey), asJson(entry));
  }

  /** Index first, then the entry. */
  async remove(idempotencyKeys: string[]): Promise<void> {
    if (idempotencyKeys.length === 0) return;
    const keys = await this.journalKeys();
    const left = keys.filter((k) => !idempotencyKeys.includes(k));
    if (left.length === 0) await this.gateway.removeSetting(journalKey(this.bindingId));
    else await this.gateway.writeSetting(journalKey(this.bindingId), left);
    for (const k of idempotencyKeys) await this.gateway.removeSetting(journalEntryKey(k));
  }

  /** Everything the table stored besides cells (when the table is deleted). */
  async forget(): Promise<void> {
    await this.remove(await this.journalKeys());
    await this.gateway.removeSetting(flagsKey(this.bindingId));
    await this.gateway.removeBinding(this.bindingId);
  }
}
