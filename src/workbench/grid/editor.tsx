// The grid's in-cell editor: what is being edited (the cell, its text, a validated column's drop-down list,
// a refusal), starting an edit, committing it (a refused value keeps the editor open with the message), and
// the editor as rendered in its cell.

import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { cellA1 } from '../../engine/ports/address';
import type { CellPosition, WorkbenchBook } from '../book';

export interface Editing {
  at: CellPosition;
  value: string;
  items: string[] | null;
  error?: string;
  /** The message opens leftwards: rightwards it would run past the grid's edge and be cut. */
  errorLeftwards?: boolean;
}

/** The refusal message's widest (.wb-editor-error's max-width in workbench.html). */
const ERROR_MAX_WIDTH_PX = 320;

/** The editor's state and what starts, commits and ends an edit. */
export function useCellEditor(book: WorkbenchBook, scroller: RefObject<HTMLDivElement | null>, select: (row: number, col: number) => void) {
  const editorRef = useRef<HTMLInputElement>(null);
  const [editing, setEditing] = useState<Editing | null>(null);

  const focusGrid = () => {
    requestAnimationFrame(() => scroller.current?.querySelector<HTMLElement>('[aria-selected="true"]')?.focus());
  };

  const startEdit = async (at: CellPosition, initial?: string) => {
    const items = await book.listItems(at.sheet, at.row, at.col).catch(() => null);
    setEditing({ at, value: initial ?? book.inputText(at), items });
  };

  /** Enters the edit; when the book takes it, selects `next` (a cell, from the cell edited) if given. */
  const commit = async (next?: (at: CellPosition) => { row: number; col: number }): Promise<boolean> => {
    if (!editing) return false;
    const outcome = await book.enter(editing.at, editing.value);
    if (!outcome.ok) {
      refuse(editing, outcome.message);
      return false;
    }
    setEditing(null);
    if (next) {
      const to = next(editing.at);
      select(to.row, to.col);
    }
    focusGrid();
    return true;
  };

  /**
   * Shows why the book refused a change at a cell, where the editor would be: a typed value stays in the
   * editor with the message; a cell cleared with Delete shows what it still holds.
   */
  const refuse = (edit: Pick<Editing, 'at'> & Partial<Editing>, message: string) => {
    const cell = (editorRef.current ?? scroller.current?.querySelector('[aria-selected="true"]'))?.getBoundingClientRect();
    const grid = scroller.current?.getBoundingClientRect();
    setEditing({ value: book.inputText(edit.at), items: null, ...edit, error: message, errorLeftwards: !!cell && !!grid && cell.left + ERROR_MAX_WIDTH_PX > grid.right });
  };

  return { editing, setEditing, editorRef, focusGrid, startEdit, commit, refuse };
}

export type CellEditorState = ReturnType<typeof useCellEditor>;

/** The editor takes the focus when an edit starts. */
export function useEditorFocus({ editing, editorRef }: Pick<CellEditorState, 'editing' | 'editorRef'>): void {
  useEffect(() => {
    if (editing) editorRef.current?.focus();
  }, [editing?.at.row, editing?.at.col, editing, editorRef]);
}

export interface CellEditorProps {
  editor: CellEditorState;
  editing: Editing;
  row: number;
  col: number;
  /** Ids of the drop-down list and the message (the grid's useId). */
  listId: string;
  onKeyDown: (e: KeyboardEvent<HTMLInputElement>) => void;
}

export function CellEditor({ editor, editing, row, col, listId, onKeyDown }: CellEditorProps) {
  const { editorRef, setEditing, commit } = editor;
  return (
    <>
      <input
        ref={editorRef}
        className="wb-editor"
        aria-label={`Edit cell ${cellA1(row, col)}`}
        aria-invalid={editing.error ? true : undefined}
        aria-describedby={editing.error ? `${listId}-error` : undefined}
        list={editing.items ? `${listId}-list` : undefined}
        value={editing.value}
        onChange={(e) => setEditing({ ...editing, value: e.target.value, error: undefined })}
        onKeyDown={onKeyDown}
        onBlur={(e) => {
          // Clicking elsewhere commits, as in Excel; a refused value keeps the editor open.
          if (e.relatedTarget && (e.relatedTarget as HTMLElement).closest('.wb-editor-error')) return;
          if (!editing.error) void commit();
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
  );
}
