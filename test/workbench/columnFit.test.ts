import { accountingFormat } from '../../src/engine/render/money';
import { fitNumber } from '../../src/workbench/columnFit';
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
