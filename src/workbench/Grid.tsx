// One sheet of the workbench's workbook as a grid: column letters and row numbers, cells through their
// number formats, bold, indents, column widths, tables (header and banded rows), the row outline with
// +/- buttons and level buttons, and an in-cell editor (double-click, Enter or F2, or just type) with the
// drop-down list of a validated table column. Long sheets render only the rows in view.
//
// Grid composes the parts in grid/: the layout and the view (layout.ts), the editor (editor.tsx) and the
// rendered parts (parts.tsx); the keys (the grid's and the editor's) are here.

import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { cellA1 } from '../engine/ports/address';
import type { WorkbenchBook } from './book';
import type { FormulaEngine } from './calc';
import { useCellEditor, useEditorFocus } from './grid/editor';
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
  const { editing, setEditing, startEdit, commit, focusGrid } = editor;

  // Collapsed groups belong to a sheet.
  useEffect(() => {
    setCollapsed(new Set());
    setEditing(null);
  }, [sheet, setEditing]);

  useSelectionInView(scroller, selection, onThisSheet, layout);
  useEditorFocus(editor);

  const onGridKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (editing || !onThisSheet) return;
    const { row, col } = selection;
    const move = (dr: number, dc: number) => {
      e.preventDefault();
      let next = row;
      if (dr !== 0) {
        const i = visibleRows.indexOf(row);
        next = visibleRows[Math.min(visibleRows.length - 1, Math.max(0, i + dr))] ?? row;
      }
      select(next, col + dc);
      focusGrid();
    };
    switch (e.key) {
      case 'ArrowDown':
        return move(1, 0);
      case 'ArrowUp':
        return move(-1, 0);
      case 'ArrowLeft':
        return move(0, col > 0 ? -1 : 0);
      case 'ArrowRight':
        return move(0, 1);
      case 'Enter':
      case 'F2':
        e.preventDefault();
        void startEdit(selection);
        return;
      case 'Delete':
      case 'Backspace':
        e.preventDefault();
        void book.enter(selection, '');
        return;
      default:
        if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
          e.preventDefault();
          void startEdit(selection, e.key);
        }
    }
  };

  const onEditorKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!editing) return;
    if (e.key === 'Enter') {
      e.preventDefault();
      void commit('down');
    } else if (e.key === 'Tab') {
      e.preventDefault();
      void commit('right');
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setEditing(null);
      focusGrid();
    }
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
                      {...{ book, engine, sheet, measures, tables, editor, listId, onEditorKey, select }}
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
