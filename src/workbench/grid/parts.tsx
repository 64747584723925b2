// The rendered parts of the grid: the outline's level buttons, the column letters, a row's +/- buttons, one
// cell (through its number format, bold, indent, table banding, or the editor), and the charts over the cells.

import type { Dispatch, KeyboardEvent, SetStateAction } from 'react';
import { columnLetters } from '../../engine/ports/address';
import type { WorkbenchBook } from '../book';
import type { FormulaEngine } from '../calc';
import type { Measure } from '../columnFit';
import { ChartView } from '../ChartView';
import { cellView } from '../display';
import { collapseToLevel, groupKey, type OutlineGroup } from '../outline';
import { CellEditor, type CellEditorState } from './editor';
import { CELL_CHROME, INDENT_PX, ROW_HEADER_WIDTH, ROW_HEIGHT, type GridLayout } from './layout';

export function OutlineLevels({ depth, groups, setCollapsed }: { depth: number; groups: OutlineGroup[]; setCollapsed: (collapsed: Set<string>) => void }) {
  const levelButtons = depth > 0 ? Array.from({ length: depth + 1 }, (_, i) => i + 1) : [];
  return (
    <div className="wb-outline-levels" role="group" aria-label="Outline levels">
      {levelButtons.map((n) => (
        <button key={n} type="button" className="wb-level" aria-label={`Show outline level ${n}`} onClick={() => setCollapsed(collapseToLevel(groups, n))}>
          {n}
        </button>
      ))}
    </div>
  );
}

export function ColumnHeads({ depth, gutter, widths, activeCol }: { depth: number; gutter: number; widths: number[]; activeCol: number | null }) {
  return (
    <thead>
      <tr role="row" aria-rowindex={1}>
        {depth > 0 && <th role="none" className="wb-corner" style={{ left: 0 }} />}
        <th role="none" className="wb-corner" style={{ left: gutter }} />
        {widths.map((_, c) => (
          <th key={c} role="columnheader" scope="col" className={activeCol === c ? 'wb-colhead wb-active-head' : 'wb-colhead'}>
            {columnLetters(c)}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** The +/- buttons of the outline groups a row sums up. */
export function OutlineToggles({ summaries, collapsed, setCollapsed }: { summaries: OutlineGroup[]; collapsed: Set<string>; setCollapsed: Dispatch<SetStateAction<Set<string>>> }) {
  return (
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
  );
}

export interface GridCellProps {
  book: WorkbenchBook;
  engine: FormulaEngine;
  sheet: string;
  row: number;
  col: number;
  width: number;
  measures: { normal: Measure; bold: Measure };
  tables: ReturnType<WorkbenchBook['tablesOn']>;
  selected: boolean;
  inSelection: boolean;
  editor: CellEditorState;
  listId: string;
  onEditorKey: (e: KeyboardEvent<HTMLInputElement>) => void;
  select: (row: number, col: number) => void;
}

export function GridCell({ book, engine, sheet, row: r, col: c, width, measures, tables, selected, inSelection, editor, listId, onEditorKey, select }: GridCellProps) {
  const { editing, startEdit } = editor;
  const at = { sheet, row: r, col: c };
  const isEditing = editing && editing.at.row === r && editing.at.col === c && editing.at.sheet === sheet;
  const cell = book.cellAt(sheet, r, c);
  const view = cellView(book, engine, at, {
    width: width - CELL_CHROME - cell.indent * INDENT_PX,
    measure: cell.bold ? measures.bold : measures.normal,
  });
  const table = tables.find((t) => c >= t.col && c < t.col + t.cols && r >= t.row && r <= t.row + Math.max(1, t.dataRows));
  const classes = ['wb-cell', `wb-${view.align}`];
  if (view.bold) classes.push('wb-bold');
  if (selected) classes.push('wb-selected');
  else if (inSelection) classes.push('wb-in-selection');
  if (table) classes.push(r === table.row ? 'wb-table-head' : (r - table.row) % 2 === 1 ? 'wb-table-odd' : 'wb-table-even');
  if (view.formula) classes.push('wb-formula');
  if (view.spilled) classes.push('wb-spilled');
  if (view.text.startsWith('#') && view.formula) classes.push('wb-error');
  const style = view.indent > 0 ? { paddingLeft: 4 + view.indent * INDENT_PX } : undefined;
  return (
    <td
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
        <CellEditor editor={editor} editing={editing} row={r} col={c} listId={listId} onKeyDown={onEditorKey} />
      ) : view.left !== undefined ? (
        <span className="wb-fill" style={view.color ? { color: view.color } : undefined}>
          <span>{view.left.trim()}</span> <span>{view.right?.trim()}</span>
        </span>
      ) : (
        <span style={view.color ? { color: view.color } : undefined}>{view.text}</span>
      )}
    </td>
  );
}

/** The sheet's charts, each over its cells, as Excel floats a chart: a collapsed row it starts on puts it at the next one shown. */
export function ChartsLayer({ layout }: { layout: Pick<GridLayout, 'charts' | 'visibleRows' | 'gutter' | 'widths'> }) {
  const { charts, visibleRows, gutter, widths } = layout;
  return (
    <>
      {charts.map(({ chart, box }) => {
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
    </>
  );
}

/** The height of the rows not rendered, above or below those in view. */
export function PadRow({ height, columns }: { height: number; columns: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden="true" style={{ height }}>
      <td colSpan={columns} />
    </tr>
  );
}
