// The workbench page: the in-memory workbook (formula bar, the active sheet as a grid, sheet tabs) on the
// left, the add-in's real task pane on the right, side by side as in Excel.

import { webLightTheme, type Theme } from '@fluentui/react-components';
import { useState, useSyncExternalStore } from 'react';
import { plural } from '../engine/text/plural';
import type { BindingRecord } from '../engine/ports/workbook';
import { App } from '../taskpane/App';
import type { PaneServices } from '../taskpane/services';
import { useLiveEffect } from '../taskpane/shared/useLiveEffect';
import type { WorkbenchBook } from './book';
import type { FormulaEngine } from './calc';
import { FormulaBar } from './FormulaBar';
import { Grid } from './Grid';

export interface WorkbenchProps {
  book: WorkbenchBook;
  engine: FormulaEngine;
  services: PaneServices;
  /** Functions the page registered (CustomFunctions.associate calls seen). */
  functionCount: number;
  /** Removes what the workbench stored (key, cache, call counts) and reloads. */
  onReset: () => void;
  theme?: Theme;
}

export function Workbench({ book, engine, services, functionCount, onReset, theme = webLightTheme }: WorkbenchProps) {
  const version = useSyncExternalStore(book.subscribe, book.getVersion, book.getVersion);
  const sheets = book.visibleSheets();
  const active = sheets.find((s) => s.toLowerCase() === book.activeSheetName().toLowerCase()) ?? sheets[0];
  const busy = engine.busyCount();

  return (
    <div className="wb-app">
      <header className="wb-header">
        <h1 className="wb-title">Workbench</h1>
        <p className="wb-subtitle">
          The Financial Reporting add-in outside Excel: its real task pane and FIN functions on an in-memory workbook. API: {services.defaultBaseUrl}
        </p>
        <div className="wb-header-actions">
          <span role="status" aria-live="polite" className="wb-calc-status">
            {busy > 0 ? `Calculating ${plural(busy, 'cell')}…` : functionCount > 0 ? `${functionCount} FIN functions` : 'No FIN functions registered'}
          </span>
          <button type="button" className="wb-button" onClick={onReset}>
            Reset workbench
          </button>
        </div>
      </header>
      <div className="wb-body">
        <section className="wb-book" aria-label="Workbook">
          <FormulaBar book={book} engine={engine} version={version} />
          <Grid book={book} engine={engine} sheet={active} version={version} />
          <div className="wb-tabs" role="tablist" aria-label="Sheets">
            {sheets.map((s) => (
              <button
                key={s}
                type="button"
                role="tab"
                aria-selected={s === active}
                className={s === active ? 'wb-tab wb-tab-active' : 'wb-tab'}
                onClick={() => void book.activateSheet(s)}
              >
                {s}
              </button>
            ))}
          </div>
          <Bindings book={book} version={version} />
        </section>
        <aside className="wb-pane" aria-label="Task pane">
          <App theme={theme} services={services} />
        </aside>
      </div>
    </div>
  );
}

/** What the pane recorded in the workbook (Refresh all rebuilds these). */
function Bindings({ book, version }: { book: WorkbenchBook; version: number }) {
  const [bindings, setBindings] = useState<BindingRecord[]>([]);
  useLiveEffect(
    (ifLive) => {
      void book.listBindings().then(ifLive(setBindings));
    },
    [book, version],
  );
  if (bindings.length === 0) return null;
  return (
    <details className="wb-bindings">
      <summary>Blocks recorded in the workbook ({bindings.length})</summary>
      <ul>
        {bindings.map((b) => (
          <li key={b.id}>
            <code>{b.kind}</code> at <code>{b.address}</code>
            {b.table ? ` (table ${b.table})` : ''}, refreshed {b.refreshedAt}
          </li>
        ))}
      </ul>
    </details>
  );
}
