// What a transactions table keeps in the workbook besides its cells:
//  - its binding (kind 'transactions'): filters, refresh mode, the committed sync watermark, and the
//    reference data edits are checked against (department paths, incorporation date), so reviewing
//    edits after reopening the workbook costs no call;
//  - row flags (one setting per table): the few rows whose Push status is not derived from their cells
//    alone (deleted upstream, changed upstream under an edit, last push failure, local validation).
// The push journal keeps its own storage (journal.ts).

import type { BindingRecord, Json, WorkbookGateway } from '../ports/workbook';
import type { DepartmentRef } from './departments';
import type { TransactionFilters } from './filters';

export const BINDING_KIND = 'transactions';

export interface Reference {
  departments: DepartmentRef[];
  /** GET /company incorporation.date; null when none is on file. */
  incorporationDate: string | null;
  /** The company's name as GET /company gave it (absent in tables pulled by earlier versions). */
  companyName?: string;
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

export const flagsKey = (bindingId: string) => `transactions.flags.${bindingId}`;

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

  /** The flags and the binding (when the table is deleted). */
  async forget(): Promise<void> {
    await this.gateway.removeSetting(flagsKey(this.bindingId));
    await this.gateway.removeBinding(this.bindingId);
  }
}
