// The grid's layout: how many rows and columns it shows (what is used, then enough empty ones to fill the
// view), the row outline and which rows it hides, the column widths, which rows are rendered (only those in
// view on long sheets), and the view itself as the scroller reports it, kept on the selected cell.

import { useCallback, useEffect, useLayoutEffect, useMemo, useState, type RefObject } from 'react';
import { parseBox } from '../../engine/ports/address';
import type { CellPosition, WorkbenchBook } from '../book';
import type { FormulaEngine } from '../calc';
import type { Measure } from '../columnFit';
import { hiddenRows, maxLevel, outlineGroups } from '../outline';

export const ROW_HEIGHT = 22;
export const DEFAULT_WIDTH = 72;
export const ROW_HEADER_WIDTH = 48;
/** Below this many rows every row is rendered; above it, only the rows in view (plus some). */
const VIRTUALIZE_OVER = 400;
const OVERSCAN = 40;

/** The grid's cell font (workbench.html's .wb-grid) and the room a cell's padding and border take. */
const CELL_FONT = "13px Calibri, Carlito, 'Segoe UI', sans-serif";
export const CELL_CHROME = 9;
export const INDENT_PX = 12;

function pointsToPx(points: number): number {
  return Math.round((points * 96) / 72);
}

/** Text widths in the grid's font; without a canvas (jsdom), 7 px a character. */
function textMeasure(bold: boolean): Measure {
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext?.('2d');
  if (!context) return (text) => text.length * 7;
  context.font = `${bold ? 'bold ' : ''}${CELL_FONT}`;
  return (text) => context.measureText(text).width;
}

export function useTextMeasures(): { normal: Measure; bold: Measure } {
  return useMemo(() => ({ normal: textMeasure(false), bold: textMeasure(true) }), []);
}

export interface Viewport {
  top: number;
  height: number;
  width: number;
}

/** The scroller's view (scroll position and size), followed on scroll and resize. */
export function useViewport(scroller: RefObject<HTMLDivElement | null>, sheet: string): { viewport: Viewport; onScroll: () => void } {
  const [viewport, setViewport] = useState<Viewport>({ top: 0, height: 600, width: 1000 });
  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (el) setViewport((v) => (v.top === el.scrollTop && v.height === el.clientHeight && v.width === el.clientWidth ? v : { top: el.scrollTop, height: el.clientHeight, width: el.clientWidth }));
  }, [scroller]);

  useLayoutEffect(() => {
    onScroll();
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => onScroll());
    observer.observe(el);
    return () => observer.disconnect();
  }, [onScroll, sheet, scroller]);

  return { viewport, onScroll };
}

export interface GridLayoutInput {
  book: WorkbenchBook;
  engine: FormulaEngine;
  sheet: string;
  version: number;
  viewport: Viewport;
  collapsed: Set<string>;
  selection: CellPosition;
  onThisSheet: boolean;
}

/** The grid's rows, columns, outline, widths, charts and the rows rendered now. */
export function useGridLayout({ book, engine, sheet, version, viewport, collapsed, selection, onThisSheet }: GridLayoutInput) {
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

  const virtual = visibleRows.length > VIRTUALIZE_OVER;
  const first = virtual ? Math.max(0, Math.floor(viewport.top / ROW_HEIGHT) - OVERSCAN) : 0;
  const last = virtual ? Math.min(visibleRows.length, Math.ceil((viewport.top + viewport.height) / ROW_HEIGHT) + OVERSCAN) : visibleRows.length;
  const shown = visibleRows.slice(first, last);
  const gutter = depth > 0 ? 18 * depth + 6 : 0;

  return { charts, rowCount, colCount, groups, depth, visibleRows, groupsBySummary, widths, first, last, shown, gutter };
}

export type GridLayout = ReturnType<typeof useGridLayout>;

/**
 * Keep the selected cell in view (keyboard moves, Name Box jumps), below the sticky column letters and
 * right of the sticky row numbers.
 */
export function useSelectionInView(scroller: RefObject<HTMLDivElement | null>, selection: CellPosition, onThisSheet: boolean, layout: Pick<GridLayout, 'visibleRows' | 'widths' | 'gutter'>): void {
  const { visibleRows, widths, gutter } = layout;
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
  }, [selection.row, selection.col, onThisSheet, visibleRows, widths, gutter, scroller]);
}
