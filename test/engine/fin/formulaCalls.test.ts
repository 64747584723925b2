// Which formulas are FIN cells, and how many FIN evaluations recalculating them starts.
import { finEvaluations } from '../../../src/engine/fin';

describe('finEvaluations', () => {
  it.each([
    ['=FIN.PNL("Rent","2026-07")', 1],
    ['=fin.total("Rent", A1)', 1],
    ['=FIN.PNL("Rent",A1)+FIN.PNL("Travel",A1)', 2],
    ['=IF(A1>0,FIN.BALANCE("Cash",A2),FIN.BALANCE("Cash",A3))', 2], // an upper bound: IF takes one branch
    ['=FIN.TRANSACTIONS ("2026-07")', 1],
    ['=SUM(FIN.INCOME_STATEMENT("FY2026"))', 1],
    ['=FIN.VERSION()', 0], // answers at once, no evaluation
    ['=FIN.REFRESHED()', 0], // streams
    ['="FIN.TOTAL(" & A1', 0], // text, not a call
    ['=\'FIN.PNL(x\'!A1', 0], // a sheet name
    ['=MYFIN.TOTAL(1)', 0], // another add-in's function
    ['=FIN.TOTALS(1)', 0], // not a FIN function
    ['FIN.TOTAL("Rent")', 0], // a constant, not a formula
    ['=SUM(A1:A9)', 0],
  ])('%s holds %i', (formula, count) => {
    expect(finEvaluations(formula)).toBe(count);
  });
});
