// One sheet of the workbench's workbook as a grid: column letters and row numbers, cells through their
// number formats, bold, indents, column widths, tables (header and banded rows), the row outline with
// +/- buttons and level buttons, and an in-cell editor (double-click, Enter or F2, or just type) with the
// drop-down list of a validated table column. Long sheets render only the rows in view.

import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { cellA1, columnLetters, parseBox } from '../engine/ports/address';
import type { CellPosition, WorkbenchBook } from './book';
import type { FormulaEngine } from './calc';
import type { Measure } from './columnFit';
import { ChartView } from './ChartView';
import { cellView } from './display';
import { collapseToLevel, groupKey, hiddenRows, maxLevel, outlineGroups } from './outline';

const ROW_HEIGHT = 22;
const DEFAULT_WIDTH = 72;
const ROW_HEADER_WIDTH = 48;
/** Below this many rows every row is rendered; above it, only the rows in view (plus some). */
const VIRTUALIZE_OVER = 400;
const OVERSCAN = 40;

export interface GridProps {
  book: WorkbenchBook;
  engine: FormulaEngine;
  sheet: string;
  /** The book's version: a new value re-renders. */
  version: number;
}

interface Editing {
  at: CellPosition;
  value: string;
  items: string[] | null;
  error?: string;
  /** The message opens leftwards: rightwards it would run past the grid's edge and be cut. */
  errorLeftwards?: boolean;
}

/** The refusal message's widest (.wb-editor-error's max-width in workbench.html). */
const ERROR_MAX_WIDTH_PX = 320;

function pointsToPx(points: number): number {
  return Math.round((points * 96) / 72);
}

/** The grid's cell font (workbench.html's .wb-grid) and the room a cell's padding and border take. */
const CELL_FONT = "13px Calibri, Carlito, 'Segoe UI', sans-serif";
const CELL_CHROME = 9;
const INDENT_PX = 12;

/** Text widths in the grid's font; without a canvas (jsdom), 7 px a character. */
function textMeasure(bold: boolean): Measure {
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext?.('2d');
  if (!context) return (text) => text.length * 7;
  context.font = `${bold ? 'bold ' : ''}${CELL_FONT}`;
  return (text) => context.measureText(text).width;
}

export function Grid({ book, engine, sheet, version }: GridProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const editorRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const [viewport, setViewport] = useState({ top: 0, height: 600, width: 1000 });
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<Editing | null>(null);
  const measures = useMemo(() => ({ normal: textMeasure(false), bold: textMeasure(true) }), []);
  const selection = book.currentCell();
  const selectedAreas = book.selectedAreas();
  const inSelection = (r: number, c: number): boolean =>
    selectedAreas.sheet.toLowerCase() === sheet.toLowerCase() && selectedAreas.areas.some((a) => r >= a.row && r < a.row + a.rows && c >= a.col && c < a.col + a.cols);
  const onThisSheet = selection.sheet.toLowerCase() === sheet.toLowerCase();

  const extent = book.extent(sheet);
  const spill = engine.spillExtent(sheet);
  // `version` (the book's change counter) is a dependency on purpose: the book mutates in place.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- version, see above
  const charts = useMemo(() => book.chartsOn(sheet).map((chart) => ({ chart, box: parseBox(chart.over) })), [book, sheet, version]);
  const chartRows = Math.max(0, ...charts.map((c) => c.box.row + c.box.rows));
  const chartCols = Math.max(0, ...charts.map((c) => c.box.col + c.box.cols));
  const usedRows = Math.max(extent.rows, spill.rows, chartRows, onThisSheet ? selection.row + 1 : 0);
  const usedCols = Math.max(extent.cols, spill.cols, chartCols, onThisSheet ? selection.col + 1 : 0);
  // Beyond what is used, as many empty rows and columns as fill the view (Excel's grid never ends).
  const rowCount = Math.max(usedRows + 10, Math.ceil(viewport.height / ROW_HEIGHT) + 1);
  const colCount = Math.max(usedCols + 2, Math.ceil((viewport.width - ROW_HEADER_WIDTH) / DEFAULT_WIDTH));

  // `version` (the book's change counter) is a dependency on purpose: the book mutates in place.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- version, see above
  const levels = useMemo(() => Array.from({ length: rowCount }, (_, r) => book.outlineLevel(sheet, r)), [book, sheet, rowCount, version]);
  const groups = useMemo(() => outlineGroups(levels), [levels]);
  const depth = maxLevel(groups);
  const hidden = useMemo(() => hiddenRows(groups, collapsed), [groups, collapsed]);
  const visibleRows = useMemo(() => Array.from({ length: rowCount }, (_, r) => r).filter((r) => !hidden.has(r)), [rowCount, hidden]);
  const groupsBySummary = useMemo(() => {
    const map = new Map<number, typeof groups>();
    for (const g of groups) map.set(g.summaryRow, [...(map.get(g.summaryRow) ?? []), g]);
    return map;
  }, [groups]);

  const widths = useMemo(
    () =>
      Array.from({ length: colCount }, (_, c) => {
        const w = book.columnWidth(sheet, c);
        return w === undefined ? DEFAULT_WIDTH : Math.max(24, pointsToPx(w));
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- version, see above
    [book, sheet, colCount, version],
  );

  // Collapsed groups belong to a sheet.
  useEffect(() => {
    setCollapsed(new Set());
    setEditing(null);
  }, [sheet]);

  const virtual = visibleRows.length > VIRTUALIZE_OVER;
  const first = virtual ? Math.max(0, Math.floor(viewport.top / ROW_HEIGHT) - OVERSCAN) : 0;
  const last = virtual ? Math.min(visibleRows.length, Math.ceil((viewport.top + viewport.height) / ROW_HEIGHT) + OVERSCAN) : visibleRows.length;
  const shown = visibleRows.slice(first, last);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (el) setViewport((v) => (v.top === el.scrollTop && v.height === el.clientHeight && v.width === el.clientWidth ? v : { top: el.scrollTop, height: el.clientHeight, width: el.clientWidth }));
  }, []);

  useLayoutEffect(() => {
    onScroll();
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => onScroll());
    observer.observe(el);
    return () => observer.disconnect();
  }, [onScroll, sheet]);

  const gutter = depth > 0 ? 18 * depth + 6 : 0;

  // Keep the selected cell in view (keyboard moves, Name Box jumps), below the sticky column letters and
  // right of the sticky row numbers.
  useEffect(() => {
    const el = scroller.current;
    if (!el || !onThisSheet) return;
    const index = visibleRows.indexOf(selection.row);
    if (index >= 0) {
      const top = index * ROW_HEIGHT;
      const header = ROW_HEIGHT;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + ROW_HEIGHT + header > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT + header - el.clientHeight;
    }
    const fixed = gutter + ROW_HEADER_WIDTH;
    const left = widths.slice(0, selection.col).reduce((a, b) => a + b, 0);
    const right = left + (widths[selection.col] ?? DEFAULT_WIDTH);
    if (left < el.scrollLeft) el.scrollLeft = left;
    else if (fixed + right > el.scrollLeft + el.clientWidth) el.scrollLeft = Math.min(left, fixed + right - el.clientWidth);
  }, [selection.row, selection.col, onThisSheet, visibleRows, widths, gutter]);

  useEffect(() => {
    if (editing) editorRef.current?.focus();
  }, [editing?.at.row, editing?.at.col, editing]);

  const select = (row: number, col: number) => {
    book.select(sheet, cellA1(Math.max(0, row), Math.max(0, col)));
  };

  const startEdit = async (at: CellPosition, initial?: string) => {
    const items = await book.listItems(at.sheet, at.row, at.col).catch(() => null);
    setEditing({ at, value: initial ?? book.inputText(at), items });
  };

  const commit = async (move: 'down' | 'right' | 'none') => {
    if (!editing) return;
    const outcome = await book.enter(editing.at, editing.value);
    if (!outcome.ok) {
      const cell = editorRef.current?.getBoundingClientRect();
      const grid = scroller.current?.getBoundingClientRect();
      setEditing({ ...editing, error: outcome.message, errorLeftwards: !!cell && !!grid && cell.left + ERROR_MAX_WIDTH_PX > grid.right });
      return;
    }
    setEditing(null);
    if (move === 'down') select(editing.at.row + 1, editing.at.col);
    else if (move === 'right') select(editing.at.row, editing.at.col + 1);
    focusGrid();
  };

  const focusGrid = () => {
    requestAnimationFrame(() => scroller.current?.querySelector<HTMLElement>('[aria-selected="true"]')?.focus());
  };

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
  const topPad = first * ROW_HEIGHT;
  const bottomPad = (visibleRows.length - last) * ROW_HEIGHT;
  const levelButtons = depth > 0 ? Array.from({ length: depth + 1 }, (_, i) => i + 1) : [];

  return (
    <div className="wb-grid-wrap">
      {depth > 0 && (
        <div className="wb-outline-levels" role="group" aria-label="Outline levels">
          {levelButtons.map((n) => (
            <button key={n} type="button" className="wb-level" aria-label={`Show outline level ${n}`} onClick={() => setCollapsed(collapseToLevel(groups, n))}>
              {n}
            </button>
          ))}
        </div>
      )}
      <div className="wb-grid-scroll" ref={scroller} onScroll={onScroll} onKeyDown={onGridKey}>
        <table
          className="wb-grid"
          role="grid"
          aria-label={`Sheet ${sheet}`}
          aria-rowcount={rowCount + 1}
          aria-colcount={colCount}
          style={{ width: totalWidth }}
        >
          <colgroup>
            {depth > 0 && <col style={{ width: gutter }} />}
            <col style={{ width: ROW_HEADER_WIDTH }} />
            {widths.map((w, c) => (
              <col key={c} style={{ width: w }} />
            ))}
          </colgroup>
          <thead>
            <tr role="row" aria-rowindex={1}>
              {depth > 0 && <th role="none" className="wb-corner" style={{ left: 0 }} />}
              <th role="none" className="wb-corner" style={{ left: gutter }} />
              {widths.map((_, c) => (
                <th key={c} role="columnheader" scope="col" className={onThisSheet && selection.col === c ? 'wb-colhead wb-active-head' : 'wb-colhead'}>
                  {columnLetters(c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {topPad > 0 && (
              <tr aria-hidden="true" style={{ height: topPad }}>
                <td colSpan={colCount + 1 + (depth > 0 ? 1 : 0)} />
              </tr>
            )}
            {shown.map((r) => {
              const summaries = groupsBySummary.get(r) ?? [];
              return (
                <tr key={r} role="row" aria-rowindex={r + 2} style={{ height: ROW_HEIGHT }}>
                  {depth > 0 && (
                    <td role="none" className="wb-outline" style={{ left: 0 }}>
                      {summaries.map((g) => {
                        const isCollapsed = collapsed.has(groupKey(g));
                        return (
                          <button
                            key={groupKey(g)}
                            type="button"
                            className="wb-toggle"
                            style={{ marginLeft: (g.level - 1) * 18 }}
                            aria-expanded={!isCollapsed}
                            aria-label={`${isCollapsed ? 'Expand' : 'Collapse'} rows ${g.start + 1} to ${g.end + 1}`}
                            onClick={() =>
                              setCollapsed((prev) => {
                                const next = new Set(prev);
                                if (next.has(groupKey(g))) next.delete(groupKey(g));
                                else next.add(groupKey(g));
                                return next;
                              })
                            }
                          >
                            {isCollapsed ? '+' : '−'}
                          </button>
                        );
                      })}
                    </td>
                  )}
                  <th
                    role="rowheader"
                    scope="row"
                    style={{ left: gutter }}
                    className={onThisSheet && selection.row === r ? 'wb-rowhead wb-active-head' : 'wb-rowhead'}
                  >
                    {r + 1}
                  </th>
                  {widths.map((_, c) => {
                    const at = { sheet, row: r, col: c };
                    const selected = onThisSheet && selection.row === r && selection.col === c;
                    const isEditing = editing && editing.at.row === r && editing.at.col === c && editing.at.sheet === sheet;
                    const cell = book.cellAt(sheet, r, c);
                    const view = cellView(book, engine, at, {
                      width: widths[c] - CELL_CHROME - cell.indent * INDENT_PX,
                      measure: cell.bold ? measures.bold : measures.normal,
                    });
                    const table = tables.find((t) => c >= t.col && c < t.col + t.cols && r >= t.row && r <= t.row + Math.max(1, t.dataRows));
                    const classes = ['wb-cell', `wb-${view.align}`];
                    if (view.bold) classes.push('wb-bold');
                    if (selected) classes.push('wb-selected');
                    else if (inSelection(r, c)) classes.push('wb-in-selection');
                    if (table) classes.push(r === table.row ? 'wb-table-head' : (r - table.row) % 2 === 1 ? 'wb-table-odd' : 'wb-table-even');
                    if (view.formula) classes.push('wb-formula');
                    if (view.spilled) classes.push('wb-spilled');
                    if (view.text.startsWith('#') && view.formula) classes.push('wb-error');
                    const style = view.indent > 0 ? { paddingLeft: 4 + view.indent * INDENT_PX } : undefined;
                    return (
                      <td
                        key={c}
                        role="gridcell"
                        className={classes.join(' ')}
                        aria-selected={selected}
                        tabIndex={selected ? 0 : -1}
                        title={view.message ?? view.full ?? (view.formula ? view.formula : undefined)}
                        aria-label={view.left !== undefined && !isEditing ? view.text : undefined}
                        style={style}
                        onMouseDown={() => {
                          if (!selected) select(r, c);
                        }}
                        onDoubleClick={() => void startEdit(at)}
                      >
                        {isEditing ? (
                          <>
                            <input
                              ref={editorRef}
                              className="wb-editor"
                              aria-label={`Edit cell ${cellA1(r, c)}`}
                              aria-invalid={editing.error ? true : undefined}
                              aria-describedby={editing.error ? `${listId}-error` : undefined}
                              list={editing.items ? `${listId}-list` : undefined}
                              value={editing.value}
                              onChange={(e) => setEditing({ ...editing, value: e.target.value, error: undefined })}
                              onKeyDown={onEditorKey}
                              onBlur={(e) => {
                                // Clicking elsewhere commits, as in Excel; a refused value keeps the editor open.
                                if (e.relatedTarget && (e.relatedTarget as HTMLElement).closest('.wb-editor-error')) return;
                                if (!editing.error) void commit('none');
                              }}
                            />
                            {editing.items && (
                              <datalist id={`${listId}-list`}>
                                {editing.items.map((item) => (
                                  <option key={item} value={item} />
                                ))}
                              </datalist>
                            )}
                            {editing.error && (
                              <span id={`${listId}-error`} role="alert" className={editing.errorLeftwards ? 'wb-editor-error wb-editor-error-leftwards' : 'wb-editor-error'}>
                                {editing.error}
                              </span>
                            )}
                          </>
                        ) : view.left !== undefined ? (
                          <span className="wb-fill" style={view.color ? { color: view.color } : undefined}>
                            <span>{view.left.trim()}</span> <span>{view.right?.trim()}</span>
                          </span>
                        ) : (
                          <span style={view.color ? { color: view.color } : undefined}>{view.text}</span>
                        )}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
            {bottomPad > 0 && (
              <tr aria-hidden="true" style={{ height: bottomPad }}>
                <td colSpan={colCount + 1 + (depth > 0 ? 1 : 0)} />
              </tr>
            )}
          </tbody>
        </table>
        {charts.map(({ chart, box }) => {
          // Over its cells, as Excel floats a chart: a collapsed row it starts on puts it at the next one shown.
          const shownAt = visibleRows.findIndex((r) => r >= box.row);
          const top = ROW_HEIGHT + Math.max(0, shownAt) * ROW_HEIGHT;
          const left = gutter + ROW_HEADER_WIDTH + widths.slice(0, box.col).reduce((a, b) => a + b, 0);
          const width = widths.slice(box.col, box.col + box.cols).reduce((a, b) => a + b, 0);
          return (
            <div key={chart.name} className="wb-chart-place" style={{ top, left }}>
              <ChartView chart={chart} width={width} height={box.rows * ROW_HEIGHT} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
