// The user leaves for another Excel window or workbook while the add-in works, or selects several sheets:
// what Excel then answers, as reported on OfficeDev/office-js (the fake's `elsewhere` and `sheetsGrouped`,
// fakeExcel.ts), through Microsoft's client library. The gateway either does the work right or stops with an
// error that says to come back; it never calls an intact block broken, and never deletes a name it does not
// have to.
import { GatewayError } from '../../src/engine/ports/workbook';
import { readReportingPeriod, REPORTING_PERIOD_NAME, setReportingPeriod } from '../../src/engine/reporting/period';
import { officeHarness } from './harnesses';
import { MAC, WEB, WINDOWS } from './officeJs';

const BLOCK = { values: Array.from({ length: 6 }, (_, r) => [`Line ${r}`, r * 10]) };

async function rejection(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError);
    return e as GatewayError;
  }
  throw new Error('expected a rejection');
}

describe.each([WINDOWS, MAC, WEB])('another window in front, on $name', (host) => {
  test('an intact block is found where it is, though NamedItem.type reads null (office-js#5504)', async () => {
    const h = officeHarness({}, { host });
    await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, BLOCK, { name: 'FinBlock_a' });
    h.inspect.insertRows('Sheet1', 1, 2);
    h.fake.elsewhere = true;
    expect(await h.office.locateBlock('FinBlock_a')).toEqual({ state: 'found', sheet: 'Sheet1', address: 'Sheet1!B4:C9', rowCount: 6, columnCount: 2 });
  });

  test('a block whose cells are gone is not called broken while Excel cannot tell: come back; back, it is broken', async () => {
    const h = officeHarness({}, { host });
    await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, BLOCK, { name: 'FinBlock_a' });
    h.inspect.deleteRows('Sheet1', 1, 10);
    h.fake.elsewhere = true;
    const error = await rejection(h.office.locateBlock('FinBlock_a'));
    expect(error.code).toBe('Inactive');
    expect(error.message).toMatch(/come back to this workbook and try again/);
    h.fake.elsewhere = false;
    expect(await h.office.locateBlock('FinBlock_a')).toEqual({ state: 'broken' });
  });

  test('a block rewritten in place keeps its name as it is; a grown one has its name pointed at it, never deleted (#2983)', async () => {
    const h = officeHarness({}, { host });
    const first = await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, BLOCK, { name: 'FinBlock_a' });
    const name = h.fake.findName('FinBlock_a');
    h.fake.elsewhere = true;
    await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, { values: BLOCK.values.map(([l, v]) => [l, Number(v) + 1]) }, { replace: { address: first.address }, name: 'FinBlock_a' });
    expect(h.fake.findName('FinBlock_a')).toBe(name);
    expect(h.inspect.cell('Sheet1', 'C3').value).toBe(11);
    const grown = { values: [...BLOCK.values, ['Line 6', 60], ['Line 7', 70]] };
    await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, grown, { replace: { address: first.address }, name: 'FinBlock_a' });
    expect(h.fake.findName('FinBlock_a')).toBe(name);
    expect(h.inspect.names()).toEqual([{ name: 'FinBlock_a', visible: false, address: 'Sheet1!B2:C9' }]);
    h.fake.elsewhere = false;
    expect(await h.office.locateBlock('FinBlock_a')).toMatchObject({ state: 'found', address: 'Sheet1!B2:C9', rowCount: 8 });
  });

  test('a name is not deleted while Excel cannot say what it is: come back', async () => {
    const h = officeHarness({}, { host });
    await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, BLOCK, { name: 'FinBlock_a' });
    h.fake.elsewhere = true;
    expect((await rejection(h.office.deleteName('FinBlock_a'))).code).toBe('Inactive');
    expect(h.inspect.names().map((n) => n.name)).toEqual(['FinBlock_a']);
    h.fake.elsewhere = false;
    await h.office.deleteName('FinBlock_a');
    expect(h.inspect.names()).toEqual([]);
  });

  test('the active cell and the selection: come back (InvalidSelection, office-js#5319)', async () => {
    const h = officeHarness({}, { host });
    h.fake.elsewhere = true;
    const cell = await rejection(h.office.getSelectedCell());
    expect([cell.code, cell.message]).toEqual(['Inactive', expect.stringMatching(/come back to this workbook/)]);
    expect((await rejection(h.office.getSelection())).code).toBe('InvalidInput');
  });
});

test('the reporting period set while another window is in front goes into the FIN_PERIOD cell; the name is not moved or deleted', async () => {
  const h = officeHarness();
  const first = await setReportingPeriod(h.office, { year: 2026, month: 10 });
  const name = h.fake.findName(REPORTING_PERIOD_NAME);
  h.fake.elsewhere = true;
  expect(await setReportingPeriod(h.office, { year: 2026, month: 11 })).toBe(first);
  expect(h.fake.findName(REPORTING_PERIOD_NAME)).toBe(name);
  expect(h.inspect.sheetNames()).toEqual(['Sheet1', 'Reporting period']);
  h.fake.elsewhere = false;
  expect(await readReportingPeriod(h.office)).toMatchObject({ state: 'set', text: '2026-11', address: first });
});

test('several sheets selected (office-js#2266): every call fails, and the error says to select one sheet', async () => {
  const h = officeHarness();
  await h.office.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'B2' }, BLOCK, { name: 'FinBlock_a' });
  h.fake.sheetsGrouped = true;
  const error = await rejection(h.office.locateBlock('FinBlock_a'));
  expect(error.code).toBe('Host');
  expect(error.message).toMatch(/several sheets are selected, come back to this workbook, select one sheet and try again\.$/);
  h.fake.sheetsGrouped = false;
  expect(await h.office.locateBlock('FinBlock_a')).toMatchObject({ state: 'found' });
});
