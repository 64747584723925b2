// One sheet of the workbench's workbook as a grid: column letters and row numbers, cells through their
// number formats, bold, indents, column widths, tables (header and banded rows), the row outline with
// +/- buttons and level buttons, and an in-cell editor (double-click, Enter or F2, or just type) with the
// drop-down list of a validated table column. Long sheets render only the rows in view.
//
// Grid composes the parts in grid/: the layout and the view (layout.ts), the editor (editor.tsx) and the
// rendered parts (parts.tsx); the keys (the grid's and the editor's) are here, where they take the selection in
// grid/keys.ts.

import { useEffect, useId, useRef, useState, type KeyboardEvent, type MutableRefObject } from 'react';
import { cellA1 } from '../engine/ports/address';
import type { WorkbenchBook } from './book';
import type { FormulaEngine } from './calc';
import { useCellEditor, useEditorFocus, type CellEditorState } from './grid/editor';
import { enterFrom, extendSelection, stepRow, tabFrom, type TabRun } from './grid/keys';
import { ROW_HEADER_WIDTH, ROW_HEIGHT, useGridLayout, useSelectionInView, useTextMeasures, useViewport } from './grid/layout';
import { ChartsLayer, ColumnHeads, GridCell, OutlineLevels, OutlineToggles, PadRow } from './grid/parts';

export interface GridProps {
  book: WorkbenchBook;
  engine: FormulaEngine;
  sheet: string;
  /** The book's version: a new value re-renders. */
  version: number;
}

export function Grid({ book, engine, sheet, version }: GridProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const listId = useId();
  const { viewport, onScroll } = useViewport(scroller, sheet);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const measures = useTextMeasures();
  const selection = book.currentCell();
  const selectedAreas = book.selectedAreas();
  const inSelection = (r: number, c: number): boolean =>
    selectedAreas.sheet.toLowerCase() === sheet.toLowerCase() && selectedAreas.areas.some((a) => r >= a.row && r < a.row + a.rows && c >= a.col && c < a.col + a.cols);
  const onThisSheet = selection.sheet.toLowerCase() === sheet.toLowerCase();
  const layout = useGridLayout({ book, engine, sheet, version, viewport, collapsed, selection, onThisSheet });
  const { rowCount, colCount, groups, depth, visibleRows, groupsBySummary, widths, first, last, shown, gutter } = layout;

  const select = (row: number, col: number) => {
    book.select(sheet, cellA1(Math.max(0, row), Math.max(0, col)));
  };
  const editor = useCellEditor(book, scroller, select);
  const { setEditing } = editor;

  // Collapsed groups belong to a sheet.
  useEffect(() => {
    setCollapsed(new Set());
    setEditing(null);
  }, [sheet, setEditing]);

  useSelectionInView(scroller, selection, onThisSheet, layout);
  useEditorFocus(editor);

  const tabRun = useRef<TabRun | null>(null);
  const keys: GridKeys = { book, sheet, visibleRows, editor, tabRun, select };
  const onGridKey = (e: KeyboardEvent<HTMLDivElement>) => gridKey(e, keys);
  const onEditorKey = (e: KeyboardEvent<HTMLInputElement>) => editorKey(e, keys);
  // A click ends a Tab run, as in Excel.
  const pick = (row: number, col: number) => {
    tabRun.current = null;
    select(row, col);
  };

  const tables = book.tablesOn(sheet);
  const totalWidth = gutter + ROW_HEADER_WIDTH + widths.reduce((a, b) => a + b, 0);
  const padColumns = colCount + 1 + (depth > 0 ? 1 : 0);

  return (
    <div className="wb-grid-wrap">
      {depth > 0 && <OutlineLevels depth={depth} groups={groups} setCollapsed={setCollapsed} />}
      <div className="wb-grid-scroll" ref={scroller} onScroll={onScroll} onKeyDown={onGridKey}>
        <table className="wb-grid" role="grid" aria-label={`Sheet ${sheet}`} aria-rowcount={rowCount + 1} aria-colcount={colCount} style={{ width: totalWidth }}>
          <colgroup>
            {depth > 0 && <col style={{ width: gutter }} />}
            <col style={{ width: ROW_HEADER_WIDTH }} />
            {widths.map((w, c) => (
              <col key={c} style={{ width: w }} />
            ))}
          </colgroup>
          <ColumnHeads depth={depth} gutter={gutter} widths={widths} activeCol={onThisSheet ? selection.col : null} />
          <tbody>
            <PadRow height={first * ROW_HEIGHT} columns={padColumns} />
            {shown.map((r) => (
              <tr key={r} role="row" aria-rowindex={r + 2} style={{ height: ROW_HEIGHT }}>
                {depth > 0 && <OutlineToggles summaries={groupsBySummary.get(r) ?? []} collapsed={collapsed} setCollapsed={setCollapsed} />}
                <th role="rowheader" scope="row" style={{ left: gutter }} className={onThisSheet && selection.row === r ? 'wb-rowhead wb-active-head' : 'wb-rowhead'}>
                  {r + 1}
                </th>
                {widths.map((w, c) => {
                  const selected = onThisSheet && selection.row === r && selection.col === c;
                  return (
                    <GridCell
                      key={c}
                      {...{ book, engine, sheet, measures, tables, editor, listId, onEditorKey }}
                      select={pick}
                      row={r}
                      col={c}
                      width={w}
                      selected={selected}
                      inSelection={!selected && inSelection(r, c)}
                    />
                  );
                })}
              </tr>
            ))}
            <PadRow height={(visibleRows.length - last) * ROW_HEIGHT} columns={padColumns} />
          </tbody>
        </table>
        <ChartsLayer layout={layout} />
      </div>
    </div>
  );
}

interface GridKeys {
  book: WorkbenchBook;
  sheet: string;
  visibleRows: readonly number[];
  editor: CellEditorState;
  tabRun: MutableRefObject<TabRun | null>;
  select: (row: number, col: number) => void;
}

/**
 * The grid's keys. Each reads the selection from the book when it is pressed, not from the last drawing:
 * the book tells the page on the next turn, so under load a second key can come before the redraw and must
 * start from where the first left the selection.
 */
function gridKey(e: KeyboardEvent<HTMLDivElement>, { book, sheet, visibleRows, editor, tabRun, select }: GridKeys): void {
  const here = book.currentCell();
  // The editor's keys bubble here; they are the editor's.
  if (editor.editing || e.target instanceof HTMLInputElement || here.sheet.toLowerCase() !== sheet.toLowerCase()) return;
  const { row, col } = here;
  const go = (to: { row: number; col: number }, run: TabRun | null = null) => {
    e.preventDefault();
    tabRun.current = run;
    select(to.row, to.col);
    editor.focusGrid();
  };
  const extend = (move: { dr: number; dc: number; toColumn?: number }) => {
    e.preventDefault();
    tabRun.current = null;
    book.select(sheet, extendSelection(here, book.selectedAreas().areas, move, visibleRows), { row, col });
  };
  const arrow = ARROWS[e.key];
  if (arrow && e.shiftKey) return extend(arrow);
  if (arrow) return go({ row: arrow.dr === 0 ? row : stepRow(row, arrow.dr, visibleRows), col: Math.max(0, col + arrow.dc) });
  switch (e.key) {
    case 'Home':
      if (e.shiftKey) return extend({ dr: 0, dc: 0, toColumn: 0 });
      return go({ row: e.ctrlKey || e.metaKey ? 0 : row, col: 0 });
    case 'Tab':
      if (e.shiftKey) return col > 0 ? go({ row, col: col - 1 }) : undefined;
      return go({ row, col: col + 1 }, tabFrom(tabRun.current, here));
    case 'Enter':
    case 'F2':
      e.preventDefault();
      void editor.startEdit(here);
      return;
    case 'Delete':
    case 'Backspace':
      e.preventDefault();
      // Delete clears the selection, Backspace the active cell (Excel's). Refused (a protected sheet): say
      // why where the cell is, as a refused typed value does.
      void (e.key === 'Delete' ? book.clearCells(sheet, book.selectedAreas().areas) : book.enter(here, '')).then((outcome) => {
        if (!outcome.ok) editor.refuse({ at: here }, outcome.message);
      });
      return;
    default:
      if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        void editor.startEdit(here, e.key);
      }
  }
}

const ARROWS: Record<string, { dr: number; dc: number } | undefined> = {
  ArrowDown: { dr: 1, dc: 0 },
  ArrowUp: { dr: -1, dc: 0 },
  ArrowLeft: { dr: 0, dc: -1 },
  ArrowRight: { dr: 0, dc: 1 },
};

/** The editor's keys: Enter enters and goes down (to the Tab run's first column), Tab enters and goes right, Escape drops the edit. */
function editorKey(e: KeyboardEvent<HTMLInputElement>, { editor, tabRun }: GridKeys): void {
  const { editing } = editor;
  if (!editing) return;
  if (e.key === 'Enter') {
    e.preventDefault();
    const run = tabRun.current;
    void editor.commit((at) => enterFrom(run, at)).then((ok) => {
      if (ok) tabRun.current = null;
    });
  } else if (e.key === 'Tab') {
    e.preventDefault();
    const run = tabFrom(tabRun.current, editing.at);
    void editor.commit((at) => ({ row: at.row, col: at.col + 1 })).then((ok) => {
      if (ok) tabRun.current = run;
    });
  } else if (e.key === 'Escape') {
    e.preventDefault();
    editor.setEditing(null);
    editor.focusGrid();
  }
}
