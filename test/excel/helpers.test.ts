import {
  boxA1,
  columnIndex,
  columnLetters,
  parseBox,
  parseQualified,
  qualify,
} from '../../src/engine/ports/address';
import { sanitizeTableName, uniqueSheetName, uniqueTableName } from '../../src/excel/hostRules';
import { GatewayError } from '../../src/engine/ports/workbook';
import { formatRuns, planGrid } from '../../src/excel/gridPlan';
import { isPayloadLimitError, rowsThatFit, utf8Length } from '../../src/excel/payload';
import { renderStatement } from '../../src/engine/render/statementGrid';
import { toGridWrite } from '../../src/engine/statements/blocks';
import { demoBalanceSheet, demoCashFlow, demoIncomeStatement } from '../engine/fixtures/statements';

describe('addresses', () => {
  test('column letters round-trip to the last column', () => {
    for (const [i, s] of [[0, 'A'], [25, 'Z'], [26, 'AA'], [701, 'ZZ'], [702, 'AAA'], [16383, 'XFD']] as const) {
      expect(columnLetters(i)).toBe(s);
      expect(columnIndex(s)).toBe(i);
    }
  });

  test('qualified addresses quote sheet names only when Excel would', () => {
    expect(qualify('Sheet1', parseBox('B2:D9'))).toBe('Sheet1!B2:D9');
    expect(qualify("P&L '26", parseBox('A1'))).toBe("'P&L ''26'!A1");
    expect(qualify('A1', parseBox('A1'))).toBe("'A1'!A1");
    expect(qualify('FinLists', parseBox('C2:C9'), true)).toBe('FinLists!$C$2:$C$9');
    expect(parseQualified("'P&L ''26'!$A$1:B2")).toEqual({ sheet: "P&L '26", box: { row: 0, col: 0, rows: 2, cols: 2 } });
    expect(boxA1(parseBox('D4:B2'))).toBe('B2:D4');
    expect(() => parseBox('A0')).toThrow(GatewayError);
    expect(() => parseQualified('A1')).toThrow(GatewayError);
  });

  test('sheet and table names are made legal and unique', () => {
    expect(uniqueSheetName('Report', ['report'])).toBe('Report (2)');
    expect(uniqueSheetName('Report', ['Report', 'Report (2)'])).toBe('Report (3)');
    const long = uniqueSheetName('x'.repeat(40), ['x'.repeat(31)]);
    expect(long).toBe(`${'x'.repeat(27)} (2)`);
    expect(uniqueSheetName("'[Q1/Q2]*?'", [])).toBe('Q1 Q2');
    expect(uniqueSheetName('history', [])).toBe('history 1');
    expect(sanitizeTableName('2026 transactions')).toBe('_2026_transactions');
    expect(sanitizeTableName('R1C1')).toBe('_R1C1');
    expect(uniqueTableName('Tx', ['tx', 'Tx2'])).toBe('Tx3');
  });
});

describe('payload', () => {
  test('UTF-8 length counts multi-byte characters', () => {
    expect(utf8Length('abc')).toBe(3);
    expect(utf8Length('Café')).toBe(5);
    expect(utf8Length('••')).toBe(6);
    expect(utf8Length('😀')).toBe(4);
    expect(utf8Length('Café 😀')).toBe(Buffer.byteLength('Café 😀'));
  });

  test('payload errors are recognised by code or by message', () => {
    expect(isPayloadLimitError({ code: 'RequestPayloadSizeLimitExceeded' })).toBe(true);
    expect(isPayloadLimitError({ code: 'GeneralException', debugInfo: { code: 'ResponsePayloadSizeLimitExceeded' } })).toBe(true);
    expect(isPayloadLimitError(new Error('The request payload size has exceeded the limit'))).toBe(true);
    expect(isPayloadLimitError({ code: 'ItemNotFound', message: 'nope' })).toBe(false);
    expect(isPayloadLimitError(undefined)).toBe(false);
  });

  test('chunks pack rows greedily, respect the cap, and always take one row', () => {
    const sizes = [10, 10, 50, 10, 10];
    expect(rowsThatFit((i) => sizes[i], 0, 5, 25, Infinity)).toBe(2);
    expect(rowsThatFit((i) => sizes[i], 2, 5, 25, Infinity)).toBe(1);
    expect(rowsThatFit((i) => sizes[i], 3, 5, 1000, Infinity)).toBe(2);
    expect(rowsThatFit((i) => sizes[i], 0, 5, 1000, 3)).toBe(3);
  });
});

describe('grid plan', () => {
  test('text is @, numbers take cell then column formats, blanks the column format', () => {
    const plan = planGrid({ values: [['a', 1, null], [null, 2]], columnFormats: [null, '0.00', '0%'], cellFormats: [[null, '0']] });
    expect(plan.values).toEqual([['a', 1, ''], ['', 2, '']]);
    expect(plan.formats).toEqual([['@', '0', '0%'], ['General', '0.00', '0%']]);
  });

  test("a renderer's full format matrix can be passed: '@' never sticks to a blank", () => {
    const plan = planGrid({ values: [['Revenue', 1, null], [null, null, 2]], cellFormats: [['@', '#,##0', '#,##0'], ['@', '#,##0', '#,##0']] });
    expect(plan.formats).toEqual([['@', '#,##0', '#,##0'], ['General', '#,##0', '#,##0']]);
  });

  test('outline runs nest by level, each folding into the total right after it; bold and indent come as runs', () => {
    const plan = planGrid({ values: [['h'], ['g'], [3], [4], [5], [6]], outlineLevels: [0, 1, 2, 2, 1, 0], boldRows: [0, 1, 4], indentLevels: [0, 1, 1, 2] });
    expect(plan.outlineRuns).toEqual([
      { start: 1, count: 4, level: 1 },
      { start: 2, count: 2, level: 2 },
    ]);
    // Under a row one level up with figures (its subtotal, above), or with no total row after: no group.
    expect(planGrid({ values: [['h'], ['p', 5], ['c', 5], ['t', 5]], outlineLevels: [0, 1, 2, 0] }).outlineRuns).toEqual([{ start: 1, count: 2, level: 1 }]);
    expect(planGrid({ values: [['h'], ['a', 1]], outlineLevels: [0, 1] }).outlineRuns).toEqual([]);
    expect(plan.boldRuns).toEqual([{ start: 0, count: 2 }, { start: 4, count: 1 }]);
    expect(plan.indentRuns).toEqual([{ start: 1, count: 2, level: 1 }, { start: 3, count: 1, level: 2 }]);
    expect(formatRuns([['a'], ['a'], ['b']], 0, 1, 2)).toEqual([{ start: 1, count: 1, format: 'a' }, { start: 2, count: 1, format: 'b' }]);
  });

  test('refuses what Excel would refuse', () => {
    expect(() => planGrid({ values: [] })).toThrow(GatewayError);
    expect(() => planGrid({ values: [[NaN]] })).toThrow(/finite/);
    expect(() => planGrid({ values: [[1]], outlineLevels: [9] })).toThrow(/Outline level/);
    // Excel's eight outline levels include the ungrouped one: seven nested groups at most.
    expect(planGrid({ values: [[1]], outlineLevels: [7] }).maxOutline).toBe(7);
    expect(() => planGrid({ values: [[1]], outlineLevels: [8] })).toThrow(/Outline level must be an integer from 0 to 7/);
    expect(() => planGrid({ values: [[1]], indentLevels: [1.5] })).toThrow(/Indent level/);
    expect(() => planGrid({ values: [[1]], boldRows: [3] })).toThrow(/outside/);
    expect(() => planGrid({ values: [[{} as unknown as string]] })).toThrow(/unsupported/);
  });
});

describe('statement outlines on Excel (no API puts summary rows above; the +/- goes on the row after a group)', () => {
  const statements = {
    'income statement': [demoIncomeStatement('2026-01-01', '2026-01-31'), demoIncomeStatement('2026-02-01', '2026-02-28', 2)],
    'balance sheet': [demoBalanceSheet()],
    'cash flow': [demoCashFlow()],
  };
  for (const [kind, reports] of Object.entries(statements)) {
    test(`${kind}: every group statementGrid asks for folds into its section's total, the row right after it`, () => {
      const grid = renderStatement({ reports, companyName: 'Acme', refreshedAt: new Date(Date.UTC(2026, 6, 15)), scale: 'thousands' });
      const plan = planGrid(toGridWrite(grid));
      expect(plan.outlineRuns.length).toBeGreaterThan(0);
      for (const run of plan.outlineRuns) {
        const after = grid.rowInfo[run.start + run.count];
        expect({ role: after?.role, section: after?.section }).toEqual({ role: 'section-total', section: grid.rowInfo[run.start].section });
      }
      // Parent lines carry their children's subtotal above them: their children fold with the section.
      expect(grid.rowInfo.some((info) => info.outlineLevel > 1)).toBe(true);
    });
  }
});
