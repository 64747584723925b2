/** @jest-environment jsdom */
// The workbench's formula bar: what is typed belongs to the cell it was typed in. The selection can change
// from outside React's events (the Name Box's Enter selects through the book, which tells the page on the next
// turn). The bar used to reset its draft in effects of that change, which in a browser may run after the next
// keystrokes (a journey typing a budget cell by cell once lost two cells); it now derives the draft from the
// cell it belongs to, so there is nothing to reset. jsdom runs effects at once, so these tests guard the
// behaviour, not the browser's timing.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useSyncExternalStore } from 'react';
import { FormulaBar } from '../../src/workbench/FormulaBar';
import { WorkbenchBook } from '../../src/workbench/book';
import { FormulaEngine } from '../../src/workbench/calc';
import { parseFunctionsJson } from '../../src/workbench/customFunctions';

function Bar({ book, engine }: { book: WorkbenchBook; engine: FormulaEngine }) {
  const version = useSyncExternalStore(book.subscribe, book.getVersion, book.getVersion);
  return <FormulaBar book={book} engine={engine} version={version} />;
}

function world() {
  const book = new WorkbenchBook();
  const engine = new FormulaEngine({ book, functions: new Map(), metadata: Promise.resolve(parseFunctionsJson({ functions: [] })) });
  render(<Bar book={book} engine={engine} />);
  return { book, formula: () => screen.getByRole('textbox', { name: 'Formula' }) as HTMLInputElement };
}

const cell = (book: WorkbenchBook, address: string) => book.inputText({ sheet: 'Sheet1', row: Number(address.slice(1)) - 1, col: address.charCodeAt(0) - 65 });

test('a value typed as soon as the bar shows the new cell is entered into it, whatever the book tells the page meanwhile', async () => {
  const w = world();
  for (const [address, value] of [['B2', '288000'], ['C2', '288000'], ['D2', '84900']] as const) {
    // The Name Box selects through the book; the page hears of it on the next turn.
    await act(async () => {
      w.book.select('Sheet1', address);
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(screen.getByRole('status', { name: 'Selected cell' }).textContent).toMatch(new RegExp(`^${address}`));
    fireEvent.change(w.formula(), { target: { value } });
    // The book moves on before the keystroke is rendered (a FIN answer elsewhere, say).
    act(() => w.book.touch());
    await act(async () => {
      fireEvent.keyDown(w.formula(), { key: 'Enter' });
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(cell(w.book, address)).toBe(value);
  }
});

test('a draft not entered stays with its cell: another cell shows its own content, and Escape gives the cell back', async () => {
  const w = world();
  await w.book.enter({ sheet: 'Sheet1', row: 0, col: 0 }, 'kept');
  await act(async () => {
    w.book.select('Sheet1', 'A1');
    await new Promise((r) => setTimeout(r, 0));
  });
  expect(w.formula().value).toBe('kept');
  fireEvent.change(w.formula(), { target: { value: 'typed' } });
  expect(w.formula().value).toBe('typed');
  expect((screen.getByRole('button', { name: 'Enter' }) as HTMLButtonElement).disabled).toBe(false);
  await act(async () => {
    w.book.select('Sheet1', 'B1');
    await new Promise((r) => setTimeout(r, 0));
  });
  expect(w.formula().value).toBe('');
  expect((screen.getByRole('button', { name: 'Enter' }) as HTMLButtonElement).disabled).toBe(true);
  await act(async () => {
    w.book.select('Sheet1', 'A1');
    await new Promise((r) => setTimeout(r, 0));
  });
  fireEvent.change(w.formula(), { target: { value: 'again' } });
  fireEvent.keyDown(w.formula(), { key: 'Escape' });
  expect(w.formula().value).toBe('kept');
  expect(cell(w.book, 'A1')).toBe('kept');
});
