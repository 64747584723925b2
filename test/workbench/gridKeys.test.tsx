/** @jest-environment jsdom */
// The workbench grid's keys, as Excel's: what an accountant presses moves and extends the selection and
// enters values the way Excel would. The book tells the page of a new selection on the next turn of the event
// loop, so under load two keys can land before the grid is drawn again: each must start from where the
// previous one left the selection, not from the last drawing (two keyDowns in one act() stand for that).
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useSyncExternalStore } from 'react';
import { Grid } from '../../src/workbench/Grid';
import { WorkbenchBook } from '../../src/workbench/book';
import { FormulaEngine } from '../../src/workbench/calc';
import { parseFunctionsJson } from '../../src/workbench/customFunctions';
import { stepRow } from '../../src/workbench/grid/keys';

// jsdom has no canvas: the grid measures text at 7 px a character then (grid/layout.ts); say so without jsdom's complaint.
beforeAll(() => {
  jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});

function Page({ book, engine }: { book: WorkbenchBook; engine: FormulaEngine }) {
  const version = useSyncExternalStore(book.subscribe, book.getVersion, book.getVersion);
  return <Grid book={book} engine={engine} sheet="Sheet1" version={version} />;
}

function world() {
  const book = new WorkbenchBook();
  const engine = new FormulaEngine({ book, functions: new Map(), metadata: Promise.resolve(parseFunctionsJson({ functions: [] })) });
  render(<Page book={book} engine={engine} />);
  return { book, grid: () => screen.getByRole('grid') };
}

/** Lets the book's notification (next turn) and the editor's async steps land, as between keystrokes a user makes. */
async function settle(): Promise<void> {
  await act(async () => {
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 0));
  });
}

async function selectCell(book: WorkbenchBook, a1: string): Promise<void> {
  act(() => book.select('Sheet1', a1));
  await settle();
}

const at = (a1: string) => ({ sheet: 'Sheet1', row: Number(a1.slice(1)) - 1, col: a1.charCodeAt(0) - 65 });
const current = (book: WorkbenchBook) => {
  const { row, col } = book.currentCell();
  return `${String.fromCharCode(65 + col)}${row + 1}`;
};
const areas = (book: WorkbenchBook) => book.selectedAreas().areas.map((a) => `${String.fromCharCode(65 + a.col)}${a.row + 1}:${String.fromCharCode(65 + a.col + a.cols - 1)}${a.row + a.rows}`);

test('two keys pressed before a redraw both count: ArrowDown then ArrowRight from A1 lands on B2', async () => {
  const w = world();
  await settle();
  act(() => {
    fireEvent.keyDown(w.grid(), { key: 'ArrowDown' });
    fireEvent.keyDown(w.grid(), { key: 'ArrowRight' });
  });
  expect(current(w.book)).toBe('B2');
  await settle();
  expect(screen.getByRole('gridcell', { selected: true })).toBe(screen.getAllByRole('row')[2].querySelectorAll('[role="gridcell"]')[1]);
});

test('arrows step over the rows a collapsed group hides, and on past the rows drawn so far', () => {
  const shown = [0, 1, 2, 6, 7];
  expect(stepRow(2, 1, shown)).toBe(6);
  expect(stepRow(6, -1, shown)).toBe(2);
  expect(stepRow(7, 1, shown)).toBe(8);
  expect(stepRow(12, -1, shown)).toBe(11);
  expect(stepRow(0, -1, shown)).toBe(0);
});

test('Home goes to column A of the row', async () => {
  const w = world();
  await selectCell(w.book, 'D7');
  act(() => {
    fireEvent.keyDown(w.grid(), { key: 'Home' });
  });
  expect(current(w.book)).toBe('A7');
});

test('Shift+Arrow extends the selection into a range and the active cell stays where it started', async () => {
  const w = world();
  await selectCell(w.book, 'B2');
  act(() => {
    fireEvent.keyDown(w.grid(), { key: 'ArrowRight', shiftKey: true });
    fireEvent.keyDown(w.grid(), { key: 'ArrowDown', shiftKey: true });
  });
  expect(areas(w.book)).toEqual(['B2:C3']);
  expect(current(w.book)).toBe('B2');
  // Back past the anchor: the range now runs left of it, the anchor still the active cell.
  act(() => {
    fireEvent.keyDown(w.grid(), { key: 'ArrowLeft', shiftKey: true });
    fireEvent.keyDown(w.grid(), { key: 'ArrowLeft', shiftKey: true });
  });
  expect(areas(w.book)).toEqual(['A2:B3']);
  expect(current(w.book)).toBe('B2');
  await settle();
  const row3 = screen.getAllByRole('row')[3].querySelectorAll('[role="gridcell"]');
  expect(row3[0].className).toContain('wb-in-selection');
  expect(row3[2].className).not.toContain('wb-in-selection');
  // A plain arrow collapses the range and moves from the active cell.
  act(() => {
    fireEvent.keyDown(w.grid(), { key: 'ArrowDown' });
  });
  expect(areas(w.book)).toEqual(['B3:B3']);
});

async function typeInto(grid: HTMLElement, text: string, key: 'Tab' | 'Enter'): Promise<void> {
  act(() => {
    fireEvent.keyDown(grid, { key: text[0] });
  });
  await settle();
  const editor = screen.getByRole('textbox', { name: /^Edit cell/ });
  fireEvent.change(editor, { target: { value: text } });
  act(() => {
    fireEvent.keyDown(editor, { key });
  });
  await settle();
}

test('Enter after a row typed with Tab goes to the column the Tab run started in, one row down', async () => {
  const w = world();
  await selectCell(w.book, 'B5');
  await typeInto(w.grid(), 'Rent', 'Tab');
  await typeInto(w.grid(), '1200', 'Tab');
  await typeInto(w.grid(), '1300', 'Enter');
  expect([w.book.inputText(at('B5')), w.book.inputText(at('C5')), w.book.inputText(at('D5'))]).toEqual(['Rent', '1200', '1300']);
  expect(current(w.book)).toBe('B6');
  // A run broken by an arrow key starts again where the next Tab is pressed.
  await typeInto(w.grid(), 'Rates', 'Tab');
  act(() => {
    fireEvent.keyDown(w.grid(), { key: 'ArrowRight' });
  });
  await settle();
  await typeInto(w.grid(), '90', 'Enter');
  expect(current(w.book)).toBe('D7');
  // Tab on a cell without typing in it (the grid's own Tab) goes right and keeps the run, as in Excel.
  await typeInto(w.grid(), 'x', 'Tab');
  act(() => {
    fireEvent.keyDown(w.grid(), { key: 'Tab' });
  });
  await settle();
  await typeInto(w.grid(), 'y', 'Enter');
  expect([w.book.inputText(at('D7')), w.book.inputText(at('E7')), w.book.inputText(at('F7'))]).toEqual(['x', '', 'y']);
  expect(current(w.book)).toBe('D8');
});

test('Delete on a locked cell of a protected sheet says why, as typing there does, and keeps the value', async () => {
  const w = world();
  await w.book.enter(at('A1'), '500');
  await w.book.protectSheet('Sheet1');
  await selectCell(w.book, 'A1');
  await act(async () => {
    fireEvent.keyDown(w.grid(), { key: 'Delete' });
  });
  await settle();
  expect(screen.getByRole('alert').textContent).toMatch(/protected sheet.*Unprotect Sheet/);
  expect(w.book.inputText(at('A1'))).toBe('500');
  // Escape puts the message away, as it does after a refused typed value.
  act(() => {
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Edit cell A1' }), { key: 'Escape' });
  });
  expect(screen.queryByRole('alert')).toBeNull();
});

test('Delete clears every cell of a range selected with Shift+Arrow, keeping formats, and only those', async () => {
  const w = world();
  for (const [a1, value] of [['A1', '100'], ['B1', '=A1*2'], ['A2', 'Rent'], ['B2', '300'], ['C1', 'kept'], ['A3', 'kept too']] as const) await w.book.enter(at(a1), value);
  await w.book.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, { values: [[300]], cellFormats: [['#,##0.00']] });
  await selectCell(w.book, 'A1');
  await act(async () => {
    fireEvent.keyDown(w.grid(), { key: 'ArrowRight', shiftKey: true });
    fireEvent.keyDown(w.grid(), { key: 'ArrowDown', shiftKey: true });
    fireEvent.keyDown(w.grid(), { key: 'Delete' });
  });
  await settle();
  expect(['A1', 'B1', 'A2', 'B2'].map((a1) => w.book.inputText(at(a1)))).toEqual(['', '', '', '']);
  expect(w.book.cellAt('Sheet1', 1, 1).numberFormat).toBe('#,##0.00');
  expect([w.book.inputText(at('C1')), w.book.inputText(at('A3'))]).toEqual(['kept', 'kept too']);
});
