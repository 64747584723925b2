import type { ClientConfig } from '../api';
import type { MeterStore } from '../api/meter';
import type { FinCell, Recalculation, RecalculateOptions } from '../engine/fin';
import type { Box } from '../engine/ports/address';
import type { SecretStore } from '../engine/ports/storage';
import type { CacheStore } from '../engine/reader/requestCache';

/**
 * What the runtime needs from the page it runs in: by default src/excel/runtimeStorage.ts builds it inside
 * Office; the workbench builds it over browser storage, and tests over memory (configureRuntime).
 */
export interface RuntimeHost {
  /** Persistent answers (and the FinService's small state: cap block, data-as-of). */
  cacheStore: CacheStore;
  /**
   * The webview's IndexedDB, for the placement memory of companies with many transactions (add-in storage
   * holds 50,000 at most beside the answers: src/runtime/storageRoom.ts placementsApart); absent in Node.
   */
  largeStore?: CacheStore;
  /** Persistent call counts per company and Pacific month. */
  meterStore: MeterStore;
  /** Add-in storage for the key and the connection (never the workbook). */
  secrets: SecretStore;
  /** The workbook's date system (asked only when a formula passes a date serial). */
  dateSystem(): Promise<1900 | 1904>;
  /**
   * Recalculates this workbook's FIN cells (with errorsOnly, those that show an error), and says how many
   * FIN evaluations that starts and how to tell when the host has finished calculating (what it can;
   * nothing leaves Refresh all to a quiet period).
   */
  recalculate(options?: RecalculateOptions): Promise<Recalculation | void>;
  /**
   * This workbook's FIN cells within a box of a sheet, each with how many FIN calls its formula makes (a
   * refresh of the selection or the sheet); absent where the host cannot read formulas.
   */
  finCellsIn?(sheet: string, box: Box): Promise<FinCell[]>;
  /** The workbook's own settings (books closed through a month end); absent where there is no workbook. */
  readWorkbookSetting?(key: string): Promise<unknown>;
  /** Tests: a fetch, a clock, client options (retries...), the FinService's API timeout. */
  fetch?: typeof fetch;
  now?: () => number;
  clientOptions?: Partial<Omit<ClientConfig, 'baseUrl' | 'apiKey' | 'companyId' | 'meter' | 'meterStore'>>;
  apiTimeoutMs?: number;
}
