import { gatewayContract } from './contract';
import { memoryHarness, officeHarness } from './harnesses';
import { MAC, membersCalledOn, OLDEST, WEB, WINDOWS } from './officeJs';
import { HOST_FILES, highestNeeded, manifestRequirements, NEWER_CLIENT_MEMBERS, readDeclarations, unavailableOn } from './requirementSets';

gatewayContract('MemoryGateway', (options) => memoryHarness(options));

// A small request budget makes every write go in chunks, so the suspension and chunking calls run too.
for (const host of [WINDOWS, MAC, WEB, OLDEST]) {
  gatewayContract(`OfficeGateway through office-js on ${host.name}`, (options) => officeHarness({ date1904: options?.date1904 }, { host, budgetBytes: 2_000 }));

  describe(`Excel members OfficeGateway called on ${host.name}, against Microsoft's requirement-set declarations`, () => {
    test(`every one is available on ${host.name}`, () => {
      const called = membersCalledOn(host);
      expect(called.size).toBeGreaterThan(40);
      expect(unavailableOn(host, called, readDeclarations(HOST_FILES[host.name as keyof typeof HOST_FILES] ?? HOST_FILES.Windows))).toEqual([]);
    });

    test('every one is a member of the library (the host reports Microsoft’s names)', () => {
      const unknown = [...membersCalledOn(host)].filter((member) => {
        const [type, name] = member.split('.');
        const cls = (Excel as unknown as Record<string, { prototype: object } | undefined>)[type];
        return !(cls && name in cls.prototype) && !(member in NEWER_CLIENT_MEMBERS);
      });
      expect(unknown).toEqual([]);
    });
  });
}

test("manifest.xml requires the ExcelApi the gateway uses: the highest set of every member called on the oldest host it admits", () => {
  const called = membersCalledOn(OLDEST);
  expect(called.size).toBeGreaterThan(40);
  expect(highestNeeded('ExcelApi', called, readDeclarations(HOST_FILES.Windows))).toBe(manifestRequirements().excelapi);
});
