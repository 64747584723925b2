import { accountingFormat } from '../../src/engine/render/money';
import { WorkbenchBook } from '../../src/workbench/book';
import { FormulaEngine } from '../../src/workbench/calc';
import { fitNumber } from '../../src/workbench/columnFit';
import { cellView } from '../../src/workbench/display';
import { formatCell } from '../../src/workbench/numberFormat';

// Numbers in narrow columns, as Excel shows them: General rounds to fit, other formats show ####.
// Widths here are in characters (every character one pixel wide).

const measure = (text: string) => text.length;
const general = (value: number, width: number) => fitNumber(value, formatCell(value, 'General'), true, width, measure).text;
const formatted = (value: number, format: string, width: number) => fitNumber(value, formatCell(value, format), false, width, measure).text;

describe('a number in a narrow column', () => {
  it('is shown in full when it fits', () => {
    expect(general(1234.5678, 20)).toBe('1234.5678');
    expect(formatted(1234.5, '#,##0.00', 8)).toBe('1,234.50');
  });

  it('in General, loses decimals first, rounding, then turns scientific', () => {
    expect(general(1234.5678, 7)).toBe('1234.57');
    expect(general(1234.5678, 6)).toBe('1234.6');
    expect(general(1234.5678, 4)).toBe('1235');
    expect(general(2.5001, 4)).toBe('2.5');
    expect(general(-0.123456, 5)).toBe('-0.12');
    expect(general(123456789, 7)).toBe('1.2E+08');
    expect(general(123456789, 5)).toBe('1E+08');
    expect(general(0.000012345, 6)).toBe('1E-05');
    expect(general(0.000012345, 8)).toBe('1.23E-05');
    expect(general(0.000012345, 7)).toBe('1.2E-05');
  });

  it('fills with # when not even that fits, and in any other format', () => {
    expect(general(123456789, 4)).toBe('####');
    expect(formatted(1234.5, '#,##0.00', 7)).toBe('#######');
    expect(formatted(-1234567.5, accountingFormat('USD', 'units'), 10)).toBe('##########');
    expect(formatted(46218, 'yyyy-mm-dd', 6)).toBe('######');
  });

  it('keeps the text and its alignment when it is cut', () => {
    const cut = fitNumber(1234.5678, formatCell(1234.5678, 'General'), true, 4, measure);
    expect(cut).toMatchObject({ text: '1235', align: 'right' });
  });
});

describe('the grid', () => {
  it('shows a cell fitted to its column, and the full text for its tooltip', async () => {
    const book = new WorkbenchBook();
    const engine = new FormulaEngine({ book, functions: new Map(), metadata: Promise.resolve(new Map()) });
    await book.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: [[2 / 3, 1234567.5, 'a long label']], cellFormats: [['General', '#,##0.00', 'General']] });
    const view = (col: number, width: number) => cellView(book, engine, { sheet: 'Sheet1', row: 0, col }, { width, measure });
    expect(view(0, 5)).toMatchObject({ text: '0.667', full: '0.666666667' });
    expect(view(1, 8)).toMatchObject({ text: '########', full: '1,234,567.50' });
    expect(view(1, 20)).toMatchObject({ text: '1,234,567.50' });
    expect(view(1, 20).full).toBeUndefined();
    expect(view(2, 3).text).toBe('a long label');
  });
});
