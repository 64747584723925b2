// The reporting period cell: made once on its own sheet under a visible name, later months written into the
// same cell (the name never moves), read back as text or, when the cell lost its text format, as a serial.
import { readReportingPeriod, setReportingPeriod } from '../../../src/engine/reporting/period';
import { MemoryGateway } from '../../../src/excel/memoryGateway';

describe('the reporting period (FIN_PERIOD)', () => {
  it('is none until set, then a month in a text cell under a visible name', async () => {
    const gateway = new MemoryGateway();
    expect(await readReportingPeriod(gateway)).toEqual({ state: 'none' });
    const address = await setReportingPeriod(gateway, { year: 2026, month: 10 });
    expect(address).toBe("'Reporting period'!B1");
    expect(gateway.cell('Reporting period', 'B1')).toMatchObject({ value: '2026-10', numberFormat: '@' });
    expect(gateway.cell('Reporting period', 'A1').value).toBe('Reporting period');
    expect(gateway.definedNames()).toEqual([{ name: 'FIN_PERIOD', visible: true, address: "'Reporting period'!B1" }]);
    expect(await readReportingPeriod(gateway)).toEqual({ state: 'set', month: { year: 2026, month: 10 }, text: '2026-10', address: "'Reporting period'!B1" });
  });

  it('writes the next month into the same cell, wherever the user moved it', async () => {
    const gateway = new MemoryGateway();
    await setReportingPeriod(gateway, { year: 2026, month: 10 });
    gateway.insertSheetRows('Reporting period', 1, 2);
    expect(await setReportingPeriod(gateway, { year: 2026, month: 11 })).toBe("'Reporting period'!B3");
    expect(gateway.sheetNames()).toEqual(['Sheet1', 'Reporting period']);
    expect(await readReportingPeriod(gateway)).toMatchObject({ state: 'set', text: '2026-11', address: "'Reporting period'!B3" });
  });

  it('reads a serial as its month, and says what is wrong with anything else', async () => {
    const gateway = new MemoryGateway();
    await setReportingPeriod(gateway, { year: 2026, month: 10 });
    gateway.typeValue('Reporting period', 'B1', 46341); // 2026-11-15
    expect(await readReportingPeriod(gateway)).toMatchObject({ state: 'set', text: '2026-11' });
    gateway.typeValue('Reporting period', 'B1', 'next month');
    expect(await readReportingPeriod(gateway)).toEqual({
      state: 'invalid',
      address: "'Reporting period'!B1",
      message: `FIN_PERIOD ('Reporting period'!B1) holds "next month", not a month such as 2026-10`,
    });
    gateway.deleteSheet('Reporting period');
    expect(await readReportingPeriod(gateway)).toMatchObject({ state: 'invalid', address: null });
    expect(await setReportingPeriod(gateway, { year: 2026, month: 12 })).toBe("'Reporting period'!B1");
    expect(await readReportingPeriod(gateway)).toMatchObject({ state: 'set', text: '2026-12' });
  });
});
