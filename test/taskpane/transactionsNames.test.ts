// What a pull calls its sheet and table (issue 13: "Transactions2" on sheet "Transactions (2)").

import { pulledSheetName, pulledTableName } from '../../src/taskpane/transactions/names';

test('a sheet is named after the dates pulled: a whole month, quarter or year by its label', () => {
  expect(pulledSheetName({})).toBe('Transactions');
  expect(pulledSheetName({ status: 'approved' })).toBe('Transactions');
  expect(pulledSheetName({ start_date: '2025-07-01', end_date: '2025-09-30' })).toBe('Transactions Q3 2025');
  expect(pulledSheetName({ start_date: '2025-12-01', end_date: '2025-12-31' })).toBe('Transactions Dec 2025');
  expect(pulledSheetName({ start_date: '2025-01-01', end_date: '2025-12-31' })).toBe('Transactions FY2025');
  // The company's fiscal year, as the statements name it.
  expect(pulledSheetName({ start_date: '2025-04-01', end_date: '2026-03-31' }, { fiscalYearStartMonth: 4 })).toBe('Transactions FY2026');
});

test('other ranges by their dates, within the 31 characters of a sheet name', () => {
  expect(pulledSheetName({ start_date: '2025-12-01', end_date: '2025-12-07' })).toBe('Transactions 2025-12-01–12-07');
  expect(pulledSheetName({ start_date: '2024-12-15', end_date: '2025-01-10' })).toBe('Txns 2024-12-15–2025-01-10');
  expect(pulledSheetName({ start_date: '2025-12-01' })).toBe('Transactions from 2025-12-01');
  expect(pulledSheetName({ end_date: '2025-12-07' })).toBe('Transactions to 2025-12-07');
  for (const name of ['2025-12-01–12-07', '2024-12-15–2025-01-10']) expect(`x${name}`.length).toBeLessThan(31);
});

test('a table takes the sheet name in the characters a table name may hold, made unique with _2, _3', () => {
  expect(pulledTableName('Transactions Q3 2025', [])).toBe('Transactions_Q3_2025');
  expect(pulledTableName('Transactions 2025-12-01–12-07', [])).toBe('Transactions_2025_12_01_12_07');
  expect(pulledTableName('Transactions', ['Transactions'])).toBe('Transactions_2');
  expect(pulledTableName('Transactions Q3 2025', ['transactions_q3_2025', 'Transactions_Q3_2025_2'])).toBe('Transactions_Q3_2025_3');
});
