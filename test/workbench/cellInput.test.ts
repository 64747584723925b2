import { classifyInput } from '../../src/workbench/cellInput';

describe('typing into a cell', () => {
  it('classifies typed input as Excel does', () => {
    expect(classifyInput('')).toEqual({ kind: 'blank' });
    expect(classifyInput('=FIN.VERSION()')).toEqual({ kind: 'formula', formula: '=FIN.VERSION()' });
    expect(classifyInput('1,234.5')).toEqual({ kind: 'number', value: 1234.5 });
    expect(classifyInput('(12)')).toEqual({ kind: 'number', value: -12 });
    expect(classifyInput('2025-12-31')).toEqual({ kind: 'date', iso: '2025-12-31' });
    expect(classifyInput("'123")).toEqual({ kind: 'text', value: '123' });
    expect(classifyInput('Sales > East')).toEqual({ kind: 'text', value: 'Sales > East' });
  });
});
