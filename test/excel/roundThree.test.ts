// Issue 36 ("Real Excel, round three"): what real Excel gives the add-in, through Microsoft's own client library
// (the real-client harness over the fake workbook), where the add-in assumed otherwise.
import { readBudgetAt, selectedBudget, serialMonths } from '../../src/engine/budgets/kept';
import { readBudget } from '../../src/engine/budgets/sheet';
import { FakeCalc } from './fakeCalc';
import { officeHarness } from './harnesses';

async function refusalOf(p: Promise<unknown>): Promise<Error & { code?: string; title?: string }> {
  try {
    await p;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal');
}

describe('item 1: whole columns and rows selected', () => {
  test('a budget selected by its column headers (Budget!A:C) is refused by its size before a million rows are read', async () => {
    const h = officeHarness();
    await h.gateway.writeGrid({ kind: 'newSheet', name: 'Budget' }, { values: [['Category', '2026-01', '2026-02'], ['Rent', 100, 100]] });
    h.inspect.select('Budget', 'A:C');
    const address = await selectedBudget(h.gateway);
    expect(address).toBe('Budget!A:C');
    const before = h.fake.syncs.length;
    const refusal = await refusalOf(readBudgetAt(h.gateway, address));
    expect(refusal.message).toBe("The budget's range holds 1,048,576 rows by 3 columns: select only the budget (its months across the top, its lines below).");
    // Nothing of the column was read.
    expect(h.fake.syncs.length).toBe(before);
  });

  test('a whole column handed to the budget reader (FIN.BUDGET over Budget!A:C) says what to select, not an internal error', () => {
    const column = Array.from({ length: 1_048_576 }, (_, i) => (i === 0 ? ['Category', '2026-01', '2026-02'] : ['', 0, 0]));
    const read = readBudget(column, { monthOfSerial: serialMonths(1900) });
    expect(read).toEqual({ ok: false, error: "The budget's range holds 1,048,576 rows by 3 columns: select only the budget (its months across the top, its lines below)." });
  });
});

describe('item 3: an error cell in a budget', () => {
  test('Excel calls no FIN function over a range holding an error (the fake as Excel); the budget check names the cell first', async () => {
    const h = officeHarness();
    await h.gateway.writeGrid({ kind: 'newSheet', name: 'Budget' }, { values: [['Category', '2026-01', 'Var %'], ['Rent', 100, '#DIV/0!'], ['', '', '']] });
    await h.gateway.writeFormula('Budget!A5', '=FIN.BUDGET(Budget!A1:C2,"Rent","2026-01")');
    const calc = new FakeCalc(h.fake, () => 100);
    calc.calculateSheet(h.fake.sheet('Budget'));
    expect(calc.calls).toEqual([]);
    expect(h.fake.cell('Budget', 'A5').value).toBe('#DIV/0!');
    const refusal = await refusalOf(readBudgetAt(h.gateway, 'Budget!A1:C2'));
    expect(refusal.message).toContain('Budget!C2 (under "Var %") shows #DIV/0!');
  });
});

describe('item 5: a selected chart', () => {
  test('getSelectedRange throws while a chart is selected (office-js#2268): the pane says a chart is selected, not several areas', async () => {
    const h = officeHarness();
    await h.gateway.writeGrid({ kind: 'newSheet', name: 'Board' }, { values: [['Month', 'Revenue'], ['Jan', 5]] });
    h.fake.selectedChart = h.fake.userChart('Board', 'B2:B2', 'D2:H10');
    const refusal = await refusalOf(h.gateway.getSelection());
    expect(refusal.message).toBe('A chart is selected: select cells and try again.');
    h.inspect.select('Board', 'A1:B2,D4');
    expect((await refusalOf(h.gateway.getSelection())).message).toContain('not several areas');
  });
});
