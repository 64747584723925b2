import { classifyInput, parseFinFormula } from '../../src/workbench/finFormula';

describe('the formula box', () => {
  it('parses a FIN call with literal arguments', () => {
    expect(parseFinFormula('=FIN.TOTAL("Revenue","2025-Q1")')).toEqual({ ok: true, call: { name: 'TOTAL', args: ['Revenue', '2025-Q1'] } });
    expect(parseFinFormula(' = fin.total( "Say ""hi""" , 46000 , , "Acme" ) ')).toEqual({
      ok: true,
      call: { name: 'TOTAL', args: ['Say "hi"', 46000, null, 'Acme'] },
    });
    expect(parseFinFormula('=FIN.PNL("Net Income","FY2025",)')).toEqual({ ok: true, call: { name: 'PNL', args: ['Net Income', 'FY2025', null] } });
    expect(parseFinFormula('=FIN.VERSION()')).toEqual({ ok: true, call: { name: 'VERSION', args: [] } });
    expect(parseFinFormula('=FIN.X(-1.5e3,TRUE,50%)')).toEqual({ ok: true, call: { name: 'X', args: [-1500, true, 0.5] } });
  });

  it('refuses what the workbench does not evaluate, saying why', () => {
    const message = (f: string) => {
      const r = parseFinFormula(f);
      return r.ok ? null : r.message;
    };
    expect(message('=SUM(1,2)')).toMatch(/FIN functions only/);
    expect(message('=XYZ.TOTAL(1)')).toMatch(/namespace XYZ/);
    expect(message('=FIN.TOTAL(A1,"2025")')).toMatch(/Argument 1 is not a literal/);
    expect(message('=FIN.TOTAL("a"')).toMatch(/closing parenthesis/);
    expect(message('=FIN.TOTAL("a)')).toMatch(/closing quote/);
    expect(message('=FIN.TOTAL("a")+1')).toMatch(/nothing may follow/);
    expect(message('FIN.TOTAL("a")')).toMatch(/starts with =/);
  });

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
