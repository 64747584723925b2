// Wires the add-in's real pieces together outside Excel: the shared runtime (src/runtime)
// configured with a RuntimeHost whose storage is the browser's and whose "recalculate" is the workbench's
// formula engine, and the pane's services over the workbench's MemoryGateway. The same wiring the
// add-in's index.tsx does with Office's pieces.

import { finEvaluations } from '../engine/fin';
import { namesReportingPeriod } from '../engine/reporting/period';
import type { Box } from '../engine/ports/address';
import type { RuntimeHost } from '../runtime';
import * as runtime from '../runtime';
import { createPaneServices, DEFAULT_BASE_URL, type PaneServices } from '../taskpane/services';
import { WorkbenchBook } from './book';
import { FormulaEngine } from './calc';
import { parseFunctionsJson, type FunctionInfo } from './customFunctions';
import { registry } from './customFunctionsStub';
import { MemoryKeyValue, WorkbenchCacheStore, WorkbenchMeterStore, WorkbenchSecretStore, WorkbenchStorage, type KeyValue } from './stores';

export interface WorkbenchOptions {
  /** The API base URL offered by the pane (the demo company's sandbox); default the build's (services.ts). */
  baseUrl?: string;
  /** Where add-in storage lives: the browser's localStorage (default) or memory (gone on reload). */
  keyValue?: KeyValue;
  /** functions.json (parameter lists, streaming); default fetched next to the page. */
  metadata?: Promise<Map<string, FunctionInfo>>;
  fetch?: typeof fetch;
}

export interface WorkbenchWorld {
  book: WorkbenchBook;
  engine: FormulaEngine;
  services: PaneServices;
  storage: WorkbenchStorage;
  host: RuntimeHost;
}

const within = (p: { row: number; col: number }, box: Box): boolean => p.row >= box.row && p.row < box.row + box.rows && p.col >= box.col && p.col < box.col + box.cols;

export function loadFunctionMetadata(url: string, fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<Map<string, FunctionInfo>> {
  return fetchImpl(url)
    .then((r) => {
      if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
      return r.json() as Promise<unknown>;
    })
    .then(parseFunctionsJson);
}

export function createWorkbench(options: WorkbenchOptions = {}): WorkbenchWorld {
  const storage = new WorkbenchStorage(options.keyValue ?? new MemoryKeyValue());
  const book = new WorkbenchBook();
  const engine = new FormulaEngine({
    book,
    functions: registry,
    metadata: options.metadata ?? Promise.resolve(new Map()),
  });
  const host: RuntimeHost = {
    cacheStore: new WorkbenchCacheStore(storage),
    meterStore: new WorkbenchMeterStore(storage),
    secrets: new WorkbenchSecretStore(storage, 'secret:'),
    dateSystem: () => book.getDateSystem(),
    // What the Office host reports too: the FIN evaluations the recalculated formulas hold (after
    // connecting, those that show an error), and whether the formula engine has handed every one over.
    recalculate: async (recalculation) => {
      const formulas = await engine.recalculateAll({ errorsOnly: recalculation?.errorsOnly, cells: recalculation?.cells });
      return { evaluations: formulas.reduce((n, f) => n + finEvaluations(f), 0), calculationDone: async () => !engine.calculating() };
    },
    finCellsIn: async (sheet, box) =>
      book
        .formulas()
        .filter((p) => p.sheet.toLowerCase() === sheet.toLowerCase() && within(p, box))
        .map((p) => {
          const formula = book.cellAt(p.sheet, p.row, p.col).formula ?? '';
          return { sheet: p.sheet, row: p.row, col: p.col, calls: finEvaluations(formula), readsPeriod: namesReportingPeriod(formula) };
        })
        .filter((c) => c.calls > 0),
    readWorkbookSetting: (key) => book.readSetting(key),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  runtime.configureRuntime(host);
  const services = createPaneServices({
    gateway: book,
    runtime,
    // The pane's own settings next to the key, as index.tsx does with OfficeRuntime.storage.
    storage: new WorkbenchSecretStore(storage, 'pane:'),
    defaultBaseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return { book, engine, services, storage, host };
}
