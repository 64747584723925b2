// Excel's formula bar, for the workbench: the Name Box (the selected cell; type an address or a range to select it) and
// the formula box (the selected cell's formula or value; type a constant or a formula and press Enter),
// with the selected cell's result, error message or spill beneath.

import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { boxA1, cellA1, parseQualified } from '../engine/ports/address';
import type { WorkbenchBook } from './book';
import type { FormulaEngine } from './calc';
import { resultText } from './display';

export interface FormulaBarProps {
  book: WorkbenchBook;
  engine: FormulaEngine;
  version: number;
}

export function FormulaBar({ book, engine }: FormulaBarProps) {
  const sel = book.currentCell();
  const address = cellA1(sel.row, sel.col);
  // What is typed belongs to the cell it was typed in: moving to another cell shows that cell's content, and
  // nothing resets a draft after the fact. (Effects that reset it on a selection change could run after the
  // next keystrokes, when the change came from outside React's events, and throw away what was just typed.)
  const cellKey = `${sel.sheet}!${address}`;
  const [nameDraft, setNameDraft] = useState<{ cell: string; text: string } | null>(null);
  const [draft, setDraft] = useState<{ cell: string; text: string } | null>(null);
  const [said, setSaid] = useState<{ cell: string; text: string } | null>(null);
  const name = nameDraft?.cell === cellKey ? nameDraft.text : address;
  const dirty = draft?.cell === cellKey;
  // The book's content as of this render (a change of the book's version re-renders the bar); a typed, not yet entered text stays.
  const text = dirty ? draft.text : book.inputText(sel);
  const message = said?.cell === cellKey ? said.text : null;
  const setMessage = (m: string | null) => setSaid(m === null ? null : { cell: cellKey, text: m });
  const discard = () => setDraft(null);

  const go = (e: FormEvent) => {
    e.preventDefault();
    const typed = name.trim();
    try {
      if (typed.includes('!')) {
        const { sheet, box } = parseQualified(typed);
        const target = book.visibleSheets().find((s) => s.toLowerCase() === sheet.toLowerCase());
        if (!target) throw new Error(`No sheet named ${sheet}`);
        void book.activateSheet(target).then(() => book.select(target, boxA1(box)));
      } else {
        const { box } = parseQualified(`'${sel.sheet.replace(/'/g, "''")}'!${typed}`);
        book.select(sel.sheet, boxA1(box));
      }
      setNameDraft(null);
      setMessage(null);
    } catch {
      setMessage(`"${typed}" is not a cell address (for example B4, or 'P&L FY2025'!B4).`);
      setNameDraft(null);
    }
  };

  // Enter keeps the selection on the cell (Excel's ✓ button does; its Enter key moves down), so the line
  // below shows the result of what was just entered.
  const enter = async () => {
    const outcome = await book.enter(sel, text);
    if (!outcome.ok) {
      setMessage(outcome.message);
      return;
    }
    discard();
    setMessage(null);
  };

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void enter();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      discard();
    }
  };

  const cell = book.cellAt(sel.sheet, sel.row, sel.col);
  const result = cell.formula ? resultText(engine.resultAt(sel)) : null;

  return (
    <div className="wb-formula-bar">
      <form onSubmit={go} className="wb-namebox-form">
        <input className="wb-namebox" aria-label="Name Box" value={name} onChange={(e) => setNameDraft({ cell: cellKey, text: e.target.value })} spellCheck={false} />
      </form>
      <button type="button" className="wb-fx-button" aria-label="Cancel" disabled={!dirty} onClick={discard}>
        ✕
      </button>
      <button type="button" className="wb-fx-button" aria-label="Enter" disabled={!dirty} onClick={() => void enter()}>
        ✓
      </button>
      <span className="wb-fx" aria-hidden="true">
        fx
      </span>
      <input
        className="wb-formula-input"
        aria-label="Formula"
        aria-describedby="wb-formula-hint"
        value={text}
        placeholder='A value, or a formula such as =FIN.PNL("Revenue", A1) or =SUM(B2:B5)'
        spellCheck={false}
        onChange={(e) => {
          setDraft({ cell: cellKey, text: e.target.value });
          setMessage(null);
        }}
        onKeyDown={onKey}
      />
      <div className="wb-result" role="status" aria-live="polite" aria-label="Selected cell">
        <span className="wb-result-address">{address}</span> {message ?? result ?? ''}
      </div>
      <span id="wb-formula-hint" className="wb-hidden">
        Enter a number, text, or a formula: cell references (A1, Sheet2!B4, A1:C9), arithmetic, Excel's functions such as SUM, and the add-in's FIN functions.
      </span>
    </div>
  );
}
