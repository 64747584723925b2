// Issue 27, item 2: a budget typed in a sheet, read the one way the pane and the FIN functions both read it.
// Units become cents once, rounded to the cent as Excel's ROUND does; text, TRUE/FALSE or an error where a
// figure belongs is refused, saying where; headings, totals and spacer columns are told apart from lines and
// months, and nothing is dropped unseen.
import { isoToSerial } from '../../../src/engine/dates';
import { monthsOfPeriod } from '../../../src/engine/budgets/months';
import { linesNamed } from '../../../src/engine/budgets/named';
import { serialMonths } from '../../../src/engine/budgets/kept';
import { monthsCovered, readBudget, type BudgetSheet } from '../../../src/engine/budgets/sheet';
import { unitsToCents } from '../../../src/engine/budgets/units';

const serial = (iso: string) => {
  const s = isoToSerial(iso, 1900);
  if (!s.ok) throw new Error(s.error);
  return s.value;
};
const options = { monthOfSerial: serialMonths(1900) };

function read(values: unknown[][], cellName?: (r: number, c: number) => string): BudgetSheet {
  const result = readBudget(values, { ...options, cellName });
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

function refusal(values: unknown[][], cellName?: (r: number, c: number) => string): string {
  const result = readBudget(values, { ...options, cellName });
  if (result.ok) throw new Error('read, expected a refusal');
  return result.error;
}

const address = (r: number, c: number) => `Budget!${String.fromCharCode(65 + c)}${r + 1}`;

test('typed units become integer cents once, rounded to the cent as Excel rounds (half away from zero on 15 digits)', () => {
  expect(unitsToCents(1200)).toBe(120000);
  expect(unitsToCents(1.005)).toBe(101); // binary 1.00499999…: Excel's ROUND(1.005, 2) is 1.01
  expect(unitsToCents(-1.005)).toBe(-101);
  expect(unitsToCents(0.1 + 0.2)).toBe(30);
  expect(unitsToCents(2.675)).toBe(268);
  expect(unitsToCents(1234.5678)).toBe(123457);
  expect(unitsToCents(-0.004)).toBe(0);
  expect(Object.is(unitsToCents(-0.004), -0)).toBe(false);
  expect(unitsToCents(Number.NaN)).toBeNull();
  expect(unitsToCents(1e14)).toBeNull();
});

test('months across the top in the forms accountants type; lines down the side; figures in cents per month', () => {
  const sheet = read([
    ['Category', serial('2026-01-01'), '2026-02', 'Mar 2026', 'April 2026', 'May-26', '6/2026', 'Total'],
    ['Revenue', null, null, null, null, null, null, null],
    ['Platform Subscriptions', 1000, 1000.5, 1000, 1000, 1000, 1000, 6000.5],
    ['Rent', 500, 500, 500, 500, 500, 500, 3000],
    ['', null, null, null, null, null, null, null],
  ]);
  expect(sheet.months.map((m) => `${Math.floor(m / 12)}-${(m % 12) + 1}`)).toEqual(['2026-1', '2026-2', '2026-3', '2026-4', '2026-5', '2026-6']);
  expect(sheet.skipped).toEqual([{ column: 7, header: 'Total' }]);
  // "Revenue" has no figures: a heading, not a line budgeted at nothing (it would hide its lines' sum).
  expect(sheet.lines.map((l) => l.label)).toEqual(['Platform Subscriptions', 'Rent']);
  expect(sheet.lines[0]).toMatchObject({ row: 2, cents: [100000, 100050, 100000, 100000, 100000, 100000] });
  expect(monthsCovered(sheet)).toBe('Jan 2026 to Jun 2026');
});

test('Excel on Windows hands a blank cell of a range over as 0: a row of zeros is a heading there as here, and a 0 heading is none', () => {
  const blanks = read([
    ['', '2026-01', '2026-02', ''],
    ['Revenue', '', '', ''],
    ['Rent', 10, 0, ''],
  ]);
  const zeros = read([
    [0, '2026-01', '2026-02', 0],
    ['Revenue', 0, 0, 0],
    ['Rent', 10, 0, 0],
    [0, 0, 0, 0],
  ]);
  expect(zeros).toEqual(blanks);
});

test('text, TRUE/FALSE or an error where a figure belongs is refused, naming the line, the month and the cell', () => {
  const head = ['', '2026-01', '2026-02', '2026-03'];
  expect(refusal([head, ['Rent', 500, '1,200', 500]], address)).toBe(
    'The budget has text "1,200" where a figure belongs (Rent, Feb 2026, Budget!C2): type it as a number.',
  );
  expect(refusal([head, ['Rent', 500, 500, true]], address)).toContain('TRUE where a figure belongs (Rent, Mar 2026, Budget!D2): type a number.');
  expect(refusal([head, ['Rent', '#N/A', 500, 500]], address)).toContain('the error #N/A where a figure belongs (Rent, Jan 2026, Budget!B2): correct what the cell reads.');
  // Without addresses (a FIN cell knows only the range), the place is its row and column in the budget.
  expect(refusal([head, ['Rent', 500, 'n/a', 500]])).toContain('(Rent, Feb 2026, row 2, column 3 of the budget)');
  // A note in a column left out (a Total, a comment) is not a figure.
  expect(readBudget([[...head, 'Notes'], ['Rent', 1, 2, 3, 'indexed to CPI']], options).ok).toBe(true);
  // An error in a column left out still reaches FIN.BUDGET: Excel calls no custom function with an error in its
  // arguments (Microsoft, "Handle and return errors from your custom function"), so the cell is named (issue 36).
  expect(refusal([[...head, 'Var %'], ['Rent', 1, 2, 3, '#DIV/0!']], address)).toBe(
    'Budget!E2 (under "Var %") shows #DIV/0!: Excel hands no FIN function a range holding an error, so every FIN.BUDGET over this budget would show it. Correct that cell, or leave the column out of the budget\'s range.',
  );
});

test('what would drop or double a figure unseen is refused: figures without a name or a month, a month or a line twice', () => {
  expect(refusal([['', '2026-01', ''], ['Rent', 5, 7]], address)).toContain('Figures under no month: Budget!C1 is blank');
  expect(refusal([['', '2026-01', '2026-02'], ['', 5, 7]], address)).toContain('Figures without a category name in row 2 of the budget (Budget!A2 is blank)');
  expect(refusal([['', '2026-01', '2026-02'], [4000, 5, 7]], address)).toContain('(Budget!A2 holds 4000, not a name)');
  expect(refusal([['', '2026-01', 'Jan 2026'], ['Rent', 5, 7]], address)).toBe('Jan 2026 heads two columns of the budget (Budget!B1 and Budget!C1): one column per month.');
  expect(refusal([['', '2026-01'], ['Rent', 5], [' rent ', 7]], address)).toContain('"rent" is on two lines of the budget (Budget!A2 and Budget!A3)');
  expect(refusal([['', 'Total', 'FY2026'], ['Rent', 5, 7]], address)).toContain("No month in the budget's first row");
  expect(refusal([['Rent', 5]])).toContain('at least two rows and two columns');
  // A number heading before 1950 is no month (a year typed as 2026 is the serial of 1905-07-18).
  expect(read([['', 2026, '2026-01'], ['Rent', 5, 7]]).skipped).toEqual([{ column: 1, header: '2026' }]);
});

test('a period is read from the months it spans; whole months only, and every one of them in the budget', () => {
  const sheet = read([['', '2026-01', '2026-02', '2026-03', '2026-05'], ['Rent', 1, 2, 3, 5]]);
  expect(monthsOfPeriod(sheet, { start: '2026-01-01', end: '2026-03-31' })).toEqual({ ok: true, value: [0, 1, 2] });
  expect(monthsOfPeriod(sheet, { start: '2026-02-01', end: '2026-05-31' })).toEqual({ ok: false, error: 'The budget has no column for Apr 2026 (it covers Jan 2026 to May 2026 with 1 month missing).' });
  expect(monthsOfPeriod(sheet, { start: '2026-01-15', end: '2026-02-28' })).toMatchObject({ ok: false, error: expect.stringContaining('not whole months') });
});

test("FIN.BUDGET's lines by name or path within the budget alone: one line, the lines typed under a parent, or why not", () => {
  const sheet = read([
    ['', '2026-01'],
    ['Rent', 1],
    ['Operating Expenses > Software', 7],
    ['Payroll & Benefits > Salaries & Wages', 2],
    ['Payroll & Benefits > Benefits', 3],
    ['Payroll & Benefits > Benefits > Health', 4],
    ['Marketing > Events', 5],
    ['Sales > Events', 6],
  ]);
  const labels = (text: string) => {
    const r = linesNamed(sheet, text);
    return r.ok ? r.value.map((l) => l.label) : r.error;
  };
  expect(labels('rent')).toEqual(['Rent']);
  expect(labels('Operating Expenses > General & Administrative > Rent')).toEqual(['Rent']);
  expect(labels('Salaries & Wages')).toEqual(['Payroll & Benefits > Salaries & Wages']);
  // The formula helper writes full paths: they meet a line typed with a head and a tail of its path.
  expect(labels('Operating Expenses > General & Administrative > Software')).toEqual(['Operating Expenses > Software']);
  expect(labels('Operating Expenses > Payroll & Benefits > Salaries & Wages')).toEqual(['Payroll & Benefits > Salaries & Wages']);
  // A parent without a line of its own: its lines by path, Health counted once (within Benefits).
  expect(labels('Payroll & Benefits')).toEqual(['Payroll & Benefits > Salaries & Wages', 'Payroll & Benefits > Benefits']);
  expect(labels('Events')).toContain('matches 2 lines of the budget: "Marketing > Events", "Sales > Events"; give the path');
  expect(labels('Travel')).toContain('The budget has no line "Travel": add one, or type the lines under it as paths');
  expect(labels('')).toContain('Missing category');
});
