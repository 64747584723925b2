// A workbook may hold tables pulled from several companies (issue 16.3). Each table records its company in
// its binding; this engine runs a table's refresh, review, push and resume on the engine of that company's
// connection, so its edits are sent with that company's key only. New pulls are the default company's; a
// drill-down into a cell of another company's block or formula runs on that company's engine. A table or a
// cell whose company is not connected here goes to the default engine, which refuses it and says whose it is
// (context.ts, drilldown.ts), sending nothing.

import { TableStore } from './state';
import { OtherCompanyCell } from './drilldown';
import type { TransactionsEngine } from './engine';
import type { WorkbookGateway } from '../ports/workbook';

export interface TablesByCompanyOptions {
  gateway: WorkbookGateway;
  /** The default company's engine. */
  own: TransactionsEngine;
  /** The engine of a company's connection; null when this computer has none. */
  engineFor: (companyId: string) => Promise<TransactionsEngine | null>;
}

export function tablesByCompany(options: TablesByCompanyOptions): TransactionsEngine {
  const { gateway, own, engineFor } = options;
  /** The engine of the company the table was pulled from; the default one when that is unknown or not here. */
  const engineOf = async (bindingId: string): Promise<TransactionsEngine> => {
    const company = await new TableStore(gateway, bindingId).binding().then(
      (b) => b.company,
      () => null, // no such table: the default engine says so
    );
    return (company !== null && (await engineFor(company))) || own;
  };
  return {
    tables: () => own.tables(),
    pull: (filters, o) => own.pull(filters, o),
    refresh: async (id, p) => (await engineOf(id)).refresh(id, p),
    catchUp: async (id, seen, p) => (await engineOf(id)).catchUp(id, seen, p),
    review: async (id) => (await engineOf(id)).review(id),
    push: async (id, o) => (await engineOf(id)).push(id, o),
    shiftAccountingDates: async (id, ids, months, o) => (await engineOf(id)).shiftAccountingDates(id, ids, months, o),
    unfinished: async (id) => (await engineOf(id)).unfinished(id),
    resume: async (id, keys, p) => (await engineOf(id)).resume(id, keys, p),
    discard: async (id, keys) => (await engineOf(id)).discard(id, keys),
    drillDown: (req, p) => own.drillDown(req, p),
    drillDownFromSelection: async (o) => {
      try {
        return await own.drillDownFromSelection(o);
      } catch (error) {
        // Refused before any call: the cell is another company's. Its engine reads it, where it is connected.
        const other = error instanceof OtherCompanyCell ? await engineFor(error.companyId) : null;
        if (!other) throw error;
        return other.drillDownFromSelection(o);
      }
    },
    forget: async (id) => (await engineOf(id)).forget(id),
  };
}
