/** The member -> requirement-set table read from the packaged host files, and the check built on it. */
import { MAC, OLDEST, WEB, WINDOWS } from './officeJs';
import { HOST_FILES, manifestRequirements, readDeclarations, unavailableOn } from './requirementSets';

describe("requirement sets from Microsoft's packaged host files", () => {
  const windows = readDeclarations(HOST_FILES.Windows);

  test('the Windows, Mac and web files declare the same sets for every Excel member', () => {
    const excel = (m: Map<string, unknown>) => JSON.stringify([...m].filter(([k]) => !/^(TelemetryService|AuthenticationService|Excel)\./.test(k)).sort());
    expect(windows.size).toBeGreaterThan(600);
    expect(excel(readDeclarations(HOST_FILES.Mac))).toBe(excel(windows));
    expect(excel(readDeclarations(HOST_FILES.web))).toBe(excel(windows));
  });

  test('what the gateway relies on is declared where the typings say', () => {
    expect(windows.get('TableRowCollection.deleteRowsAt')).toEqual({ set: 'ExcelApiOnline', version: '1.1' });
    expect(windows.get('Range.group')).toEqual({ set: 'ExcelApi', version: '1.10' });
    expect(windows.get('RangeFormat.indentLevel')).toEqual({ set: 'ExcelApi', version: '1.9' });
    expect(windows.get('Workbook.getSelectedRanges')).toEqual({ set: 'ExcelApi', version: '1.9' });
    expect(windows.get('Workbook.settings')).toEqual({ set: 'ExcelApi', version: '1.4' });
    expect(windows.get('Worksheet.getRangeByIndexes')).toEqual({ set: 'ExcelApi', version: '1.7' });
    // The package predates ExcelApi 1.16: valuesAsJson is not in it at all.
    expect(windows.has('Range.valuesAsJson')).toBe(false);
  });

  test('the check names a member a host lacks: deleteRowsAt (defect 1) on Windows and Mac, not on the web', () => {
    const called = ['Range.delete', 'TableRowCollection.deleteRowsAt', 'Range.group'];
    expect(unavailableOn(WINDOWS, called, windows)).toEqual(['TableRowCollection.deleteRowsAt needs ExcelApiOnline 1.1']);
    expect(unavailableOn(MAC, called, windows)).toEqual(['TableRowCollection.deleteRowsAt needs ExcelApiOnline 1.1']);
    expect(unavailableOn(WEB, called, windows)).toEqual([]);
    expect(unavailableOn(OLDEST, ['Range.valuesAsJson', 'Range.group', 'Range.moveTo'], windows)).toEqual(['Range.moveTo needs ExcelApi 1.11', 'Range.valuesAsJson needs ExcelApi 1.16']);
  });
  test('the oldest host profile has exactly the sets manifest.xml requires, so what passes on it passes on every host the manifest admits', () => {
    expect(manifestRequirements()).toEqual(OLDEST.sets);
    expect(manifestRequirements()).toMatchObject({ excelapi: '1.10', customfunctionsruntime: '1.2', sharedruntime: '1.1' });
  });
});
